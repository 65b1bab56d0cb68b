// "Open the source": a precedent's document in its DMS (SharePoint, iManage) or on the firm's
// file share, from the link the index recorded (`source.url`). The link is the DMS's own
// address: opening it signs the lawyer in there and the DMS checks their access again, so the
// pane never hands out a document the DMS would refuse. Only http(s) and file links are shown.

import { h, text } from "./dom.js";

/** The source's link when it is an http(s) or file URL, else "" (never javascript: or data:). */
export function sourceUrl(source) {
  const raw = text(source?.url);
  if (!raw) return "";
  try {
    const url = new URL(raw);
    return ["https:", "http:", "file:"].includes(url.protocol) ? url.href : "";
  } catch {
    return "";
  }
}

/** Where the link opens, in the lawyer's words: "Open in SharePoint", "Open in iManage", "Open file". */
export function sourceLinkLabel(url) {
  if (!url) return "";
  const { protocol, hostname, pathname } = new URL(url);
  if (protocol === "file:") return "Open file";
  if (/(^|\.)sharepoint\.(com|us|de|cn)$/i.test(hostname) || /onedrive/i.test(hostname)) return "Open in SharePoint";
  if (/imanage/i.test(hostname) || pathname.startsWith("/work/")) return "Open in iManage";
  return "Open source document";
}

/** The link element for a card, or null when the source gave none. */
export function sourceLink(doc, source) {
  const url = sourceUrl(source);
  if (!url) return null;
  const label = sourceLinkLabel(url);
  return h(doc, "a", { className: "open-source", href: url, target: "_blank", rel: "noopener noreferrer", title: `${label}: the document this precedent comes from (you sign in there as usual)` }, label);
}

/** A line for a Word comment: "Open in SharePoint: https://...", or "" without a link. */
export function openLine(source) {
  const url = sourceUrl(source);
  return url ? `${sourceLinkLabel(url)}: ${url}` : "";
}
