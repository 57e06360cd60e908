// @ts-check
/**
 * `pnpm deps`: the import graph of the whole repository, checked. No file may take part in an
 * import cycle (type-only imports included), and `@parley/server`'s floors
 * (scripts/serverFloors.js, explained in packages/server/ARCHITECTURE.md) import only downward.
 * A violation names the importing file and the imported one.
 */
import { serverFloors, serverSource } from './scripts/serverFloors.js';

/** @param {string} room */
const roomPath = (room) =>
  room.endsWith('.ts') ? `${serverSource}/${room}$` : `${serverSource}/${room}/`;

/** @param {readonly string[]} rooms */
const anyOf = (rooms) => `^(${rooms.map(roomPath).join('|')})`;

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const floorRules = serverFloors.flatMap((floor, index) => {
  const above = serverFloors.slice(index + 1).flatMap((higher) => higher.rooms);
  const upward =
    above.length === 0
      ? []
      : [
          {
            name: `server-floor-${floor.name}`,
            comment: `@parley/server floor '${floor.name}' imports only from the floors below it (packages/server/ARCHITECTURE.md): not from ${above.join(', ')}`,
            severity: /** @type {const} */ ('error'),
            from: { path: anyOf(floor.rooms) },
            to: { path: anyOf(above) },
          },
        ];
  const sideways = floor.rooms.flatMap((room) => {
    const others = floor.rooms.filter((other) => other !== room);
    return others.length === 0
      ? []
      : [
          {
            name: `server-room-${room}`,
            comment: `@parley/server's ${room} and ${others.join(', ')} share the floor '${floor.name}' and stay independent: what both need belongs on a floor below`,
            severity: /** @type {const} */ ('error'),
            from: { path: anyOf([room]) },
            to: { path: anyOf(others) },
          },
        ];
  });
  return [...upward, ...sideways];
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import cycle (type-only imports count): break it where the knot is',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...floorRules,
  ],
  options: {
    // Type-only imports are dependencies too: a cycle through types is still a knot to untie.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|\\.turbo|\\.conformance)/' },
    enhancedResolveOptions: {
      conditionNames: ['@parley/source', 'import', 'types', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
