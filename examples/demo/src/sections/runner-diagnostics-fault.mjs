// Preloaded into the real paperclip-runnerd by the diagnostics tour section with
// `node --import`: it stands for a harness SDK that throws, outside any try/catch,
// an error quoting its API key and a 200 KiB upstream response body.
const write = process.stdout.write.bind(process.stdout);
let fired = false;
process.stdout.write = (...args) => {
  if (!fired) {
    fired = true;
    process.nextTick(() => {
      const body = `{"error":"upstream overloaded","trace":"${"0123456789abcdef".repeat(12_800)}"}`;
      throw new Error(
        `provider request failed: OPENAI_API_KEY=sk-demo-live-4f9a8b7c6d5e4f3a2b1c Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJlLWRlbW8 response ${body}`,
      );
    });
  }
  return write(...args);
};
