// The resource plugin's entry (PulumiPlugin.yaml): the package's built provider, served
// over Pulumi's provider protocol. `npm run build` (run by `npm run setup`) builds dist/.
"use strict";
require("../dist/provider/plugin/main.js")
  .main()
  .catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
