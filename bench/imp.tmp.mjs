const t0 = performance.now();
await import(process.argv[2]);
console.log(process.argv[2], (performance.now() - t0).toFixed(1), 'ms');
