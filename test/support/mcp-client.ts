/* eslint-disable @typescript-eslint/no-explicit-any -- tool answers are untyped JSON */
/** Calls one assistant tool through the official SDK client; parses the JSON answer. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; text: string; body: any }> {
  const result = (await client.callTool({ name, arguments: args })) as any;
  const text = result.content?.[0]?.text as string;
  return { isError: result.isError === true, text, body: result.isError ? null : JSON.parse(text) };
}
