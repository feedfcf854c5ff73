// Bench-only preload: exit normally on SIGINT/SIGTERM so --cpu-prof writes its profile.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => process.exit(0));
