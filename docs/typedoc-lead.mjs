// @ts-check
/**
 * A TypeDoc plugin that puts what users reach for first at the top of each package's page:
 * typedoc sorts every group alphabetically, so `@parley/server` opened with the re-exported
 * `AcceptedElicitation` and `ParleyServer` came later. After typedoc has grouped the
 * reflections, the names below move to the front of their group, in this order; the rest keep
 * typedoc's order.
 */
import { Converter, ReflectionKind } from 'typedoc';

/** In the order a reader meets them in the guide. */
export const LEAD = [
  'ParleyServer',
  'Client',
  'Context',
  'runCli',
  'ParleyServerOptions',
  'ClientOptions',
  'inputRequired',
  'elicitRequest',
  'sampleRequest',
  'rootsRequest',
  'ElicitationHandler',
  'InputContext',
  'CliIo',
];

/** @param {{ name: string }} reflection */
const rank = (reflection) => {
  const index = LEAD.indexOf(reflection.name);
  return index === -1 ? LEAD.length : index;
};

/** @param {import('typedoc').ContainerReflection} container */
function leadFirst(container) {
  for (const group of container.groups ?? []) {
    // Array#sort is stable: equal ranks keep typedoc's order.
    group.children.sort((a, b) => rank(a) - rank(b));
  }
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      // With entryPointStrategy "packages" each package is converted as a project of its own.
      leadFirst(context.project);
      for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
        if ('groups' in module)
          leadFirst(/** @type {import('typedoc').ContainerReflection} */ (module));
      }
    },
    // After typedoc's own grouping (priority -100).
    -200,
  );
}
