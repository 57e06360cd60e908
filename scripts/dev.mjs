// `pnpm dev` starts the demo apps (booking, reporting, dual-era) once they exist. Until they
// land it says so and exits cleanly, so the README's command never fails on a fresh machine.
console.log(
  'Parley: the demo apps (booking, reporting, dual-era) are not built yet, so there is nothing to start.\n' +
    'Run `pnpm test` to run every test.',
);
