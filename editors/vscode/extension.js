// The VS Code side of raiders: starts `raiders lsp` (over stdio) for card files and YAML files.
// Every YAML file is sent because logs and scenarios may have any name; the server speaks only
// of mod.yaml, ruleset.yaml and YAML that declares a raiders format (`format: raiders-…`).
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("raiders")
    .get("server.command", ["raiders", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "raiders",
    "Raiders card language",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "raiders" },
        { scheme: "file", language: "yaml" },
      ],
      // Card files and mod.yaml changed outside the editor (a `git checkout`): the server
      // keeps each mod's check between edits and reads these again.
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.dsl,mod.yaml}"),
      },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
