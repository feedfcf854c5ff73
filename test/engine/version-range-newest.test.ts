/** The engine smoke at the newest end of the tested range of Pulumi (versionRange.helpers.ts). */
import { rangeSmoke } from "./versionRange.helpers";

jest.setTimeout(600_000);

rangeSmoke("newest");
