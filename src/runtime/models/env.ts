/** Environment lookups of the HTTP model adapters (API keys, base URLs). */

/** The value of environment variable `name`, or undefined when it is unset or blank. */
export function envVar(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}
