// The pane's summary of a document, as it would send it: paragraphs (JSON, from
// benchmarks/conform/paragraphs.py) on stdin -> summaryForServer(documentProfile(...)) on stdout.
import { readFileSync } from "node:fs";
import { documentProfile, summaryForServer } from "../../addin_server/static/taskpane/document-profile.js";

const paragraphs = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(summaryForServer(documentProfile(paragraphs))));
