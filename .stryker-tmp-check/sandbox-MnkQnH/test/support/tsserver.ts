/**
 * A client of tsserver, the process behind editors' TypeScript support, speaking its JSON
 * protocol over stdio, so that tests see hovers, completions and signature help as an editor does.
 *
 *   const server = startTsserver(projectDir);
 *   await server.open(file, text);
 *   const hover = await server.quickinfo(file, { line: 3, offset: 10 });
 *   server.stop();
 */
// @ts-nocheck

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based. */
  offset: number;
}

type DocText = string | { text: string }[] | undefined;

export interface QuickInfo {
  displayString: string;
  documentation: string;
}

export interface SignatureHelp {
  /** Each overload as the editor shows it: `Monitor(name: string, args: MonitorArgs, opts?: ...)`. */
  signatures: string[];
  documentation: string[];
}

interface Message {
  type: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  body?: unknown;
}

export interface Tsserver {
  open(file: string, text: string): Promise<void>;
  quickinfo(file: string, at: Position): Promise<QuickInfo | undefined>;
  completionNames(file: string, at: Position): Promise<string[]>;
  completionDocumentation(file: string, at: Position, name: string): Promise<string>;
  signatureHelp(file: string, at: Position): Promise<SignatureHelp | undefined>;
  stop(): void;
}

const textOf = (parts: DocText): string => (typeof parts === "string" ? parts : (parts ?? []).map((part) => part.text).join(""));

/** Starts the tsserver of the TypeScript installed in `projectDir`. */
export function startTsserver(projectDir: string): Tsserver {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(projectDir, "node_modules/typescript/lib/tsserver.js"), "--disableAutomaticTypingAcquisition"],
    { cwd: projectDir },
  );
  let seq = 0;
  const pending = new Map<number, { resolve: (message: Message) => void; reject: (error: Error) => void }>();
  let buffer = Buffer.alloc(0);
  child.stdout.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as Message;
      buffer = buffer.subarray(headerEnd + 4 + length);
      if (message.type === "response" && message.request_seq !== undefined) pending.get(message.request_seq)?.resolve(message);
    }
  });
  child.on("exit", (code) => {
    for (const { reject } of pending.values()) reject(new Error(`tsserver exited (${code})`));
  });

  const request = (command: string, args: unknown): Promise<Message> => {
    seq += 1;
    const id = seq;
    const answer = new Promise<Message>((resolve, reject) => pending.set(id, { resolve, reject }));
    child.stdin.write(`${JSON.stringify({ seq: id, type: "request", command, arguments: args })}\n`);
    return answer.finally(() => pending.delete(id));
  };

  return {
    async open(file, text) {
      // `open` has no response; a following request is answered only once the file is open.
      seq += 1;
      child.stdin.write(`${JSON.stringify({ seq, type: "request", command: "open", arguments: { file, fileContent: text, scriptKindName: "TS" } })}\n`);
      await request("projectInfo", { file, needFileNameList: false });
    },
    async quickinfo(file, at) {
      const response = await request("quickinfo", { file, ...at });
      if (response.success !== true) return undefined;
      const body = response.body as { displayString: string; documentation: DocText };
      return { displayString: body.displayString, documentation: textOf(body.documentation) };
    },
    async completionNames(file, at) {
      const response = await request("completionInfo", { file, ...at });
      return ((response.body as { entries?: { name: string }[] } | undefined)?.entries ?? []).map(({ name }) => name);
    },
    async completionDocumentation(file, at, name) {
      const response = await request("completionEntryDetails", { file, ...at, entryNames: [name] });
      const [details] = (response.body as { documentation: DocText }[] | undefined) ?? [];
      return textOf(details?.documentation);
    },
    async signatureHelp(file, at) {
      const response = await request("signatureHelp", { file, ...at });
      if (response.success !== true) return undefined;
      type Part = { text: string };
      const body = response.body as {
        items: { prefixDisplayParts: Part[]; suffixDisplayParts: Part[]; separatorDisplayParts: Part[]; parameters: { displayParts: Part[] }[]; documentation: Part[] }[];
      };
      return {
        signatures: body.items.map(
          (item) =>
            textOf(item.prefixDisplayParts) +
            item.parameters.map((parameter) => textOf(parameter.displayParts)).join(textOf(item.separatorDisplayParts)) +
            textOf(item.suffixDisplayParts),
        ),
        documentation: body.items.map((item) => textOf(item.documentation)),
      };
    },
    stop() {
      child.kill();
    },
  };
}
