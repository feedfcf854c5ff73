/**
 * `npm start`: the demo. It arrives with the emulator and the provider (issues 5-7);
 * until then it checks the toolchain and says so.
 */
import { requireToolchain } from "./toolchain";

const tc = requireToolchain();
console.log(`Pulumi CLI v${tc.pulumiVersion} is ready in ${tc.pulumiBinDir}.`);
console.log("The demo arrives with the emulator and the provider; run `npm test` meanwhile.");
