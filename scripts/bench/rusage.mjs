// @ts-check
// Preloaded (node --import) into a process whose resource usage the bench wants: prints it as one
// JSON line on stderr at exit, {"rusage": process.resourceUsage()} (maxRSS is the kernel's peak).
process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ rusage: process.resourceUsage() })}\n`);
});
