/**
 * Pulumi's mocks standing in for the engine, for unit tests of the SDK's wiring: every
 * resource is registered with its inputs as its state, and the program's registration
 * order (sdk/registrationOrder.ts) starts empty before each test.
 */
import * as pulumi from "@pulumi/pulumi";
import { resetRegistrationOrder } from "../../sdk/registrationOrder";

export function useEchoMocks(): void {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs } }),
        call: (args) => args.inputs,
      },
      "project",
      "stack",
      true,
    );
  });
  beforeEach(() => resetRegistrationOrder());
}

/** Resolves once every resource is registered (its id known). */
export function registered(resources: readonly pulumi.CustomResource[]): Promise<unknown> {
  return new Promise((resolve) => pulumi.all(resources.map((r) => r.id)).apply(resolve));
}
