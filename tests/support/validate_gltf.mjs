// SPDX-License-Identifier: GPL-3.0-or-later
// Validate one .gltf or .glb file with the Khronos glTF-Validator and print its JSON report.
// Usage: node validate_gltf.mjs <file>   (run from the checkout so node_modules/ is found)
import { readFile } from "node:fs/promises";
import path from "node:path";
import process from "node:process";

import validator from "gltf-validator";

const file = process.argv[2];
if (!file) {
  console.error("usage: node validate_gltf.mjs <file.gltf|file.glb>");
  process.exit(2);
}
const fullPath = path.resolve(file);
const folder = path.dirname(fullPath);

// Buffers and images beside a .gltf are loaded from its folder; data: URIs are decoded by the
// validator itself.
const loadSibling = async (uri) =>
  new Uint8Array(await readFile(path.resolve(folder, decodeURIComponent(uri))));

const report = await validator.validateBytes(new Uint8Array(await readFile(fullPath)), {
  uri: path.basename(fullPath),
  format: fullPath.toLowerCase().endsWith(".glb") ? "glb" : "gltf",
  maxIssues: 0,
  writeTimestamp: false,
  externalResourceFunction: loadSibling,
});
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
