package loopbench.claims;

import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The claims report written twice as it is built: Markdown (images as relative links to the PNGs next to it) and a
 * self-contained HTML page (images embedded as data URIs, no script, no external style or font, links only to
 * relative paths), so that both say the same thing. Text may use two Markdown marks, {@code **bold**} and
 * {@code `code`}; the HTML side escapes everything else.
 */
final class ReportPage {
    private static final Pattern BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private final StringBuilder md = new StringBuilder();
    private final StringBuilder html = new StringBuilder();

    ReportPage(String title) {
        md.append("# ").append(title).append("\n\n");
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(title)).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;")
                .append("line-height:1.45}\n")
                .append("table{border-collapse:collapse;margin:.8em 0;font-size:.9em}\n")
                .append("th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}\n")
                .append("th{background:#f3f3f3}\ncode{background:#f5f5f5;padding:0 .2em;font-size:.92em}\n")
                .append("pre{background:#f5f5f5;padding:.6em;overflow-x:auto}\n")
                .append("img{max-width:100%;border:1px solid #eee}\n")
                .append(".CONFIRMED{color:#11772d;font-weight:bold}.REFUTED{color:#b3261e;font-weight:bold}\n")
                .append(".INCONCLUSIVE{color:#8a6d00;font-weight:bold}")
                .append(".NOT-TESTABLE-HERE{color:#555;font-weight:bold}\n")
                .append(".MISSING{color:#555;font-style:italic;font-weight:bold}\n")
                .append("</style>\n</head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n");
    }

    void heading(int level, String text, String anchor) {
        md.append("#".repeat(level)).append(' ').append(text).append("\n\n");
        html.append("<h").append(level).append(anchor == null ? "" : " id=\"" + escape(anchor) + "\"").append('>')
                .append(inline(text)).append("</h").append(level).append(">\n");
    }

    void paragraph(String text) {
        md.append(text).append("\n\n");
        html.append("<p>").append(inline(text)).append("</p>\n");
    }

    /** A verdict, coloured in HTML, with a qualifier after it (e.g. "provisional: 3 of 6 rounds"; null: none). */
    void verdict(Verdict v, String qualifier, String reason) {
        String q = qualifier == null ? "" : " (" + qualifier + ")";
        md.append("**Verdict: ").append(v.label()).append(q).append("**: ").append(reason).append("\n\n");
        html.append("<p>Verdict: <span class=\"").append(v.label()).append("\">").append(v.label()).append("</span>")
                .append(escape(q)).append(": ").append(inline(reason)).append("</p>\n");
    }

    void table(List<String> header, List<List<String>> rows) {
        md.append('|');
        header.forEach(h -> md.append(' ').append(cell(h)).append(" |"));
        md.append("\n|");
        header.forEach(h -> md.append(" --- |"));
        md.append('\n');
        html.append("<table>\n<tr>");
        header.forEach(h -> html.append("<th>").append(inline(h)).append("</th>"));
        html.append("</tr>\n");
        for (List<String> r : rows) {
            md.append('|');
            r.forEach(c -> md.append(' ').append(cell(c)).append(" |"));
            md.append('\n');
            html.append("<tr>");
            for (String c : r) {
                html.append("<td>").append(verdictSpan(c)).append("</td>");
            }
            html.append("</tr>\n");
        }
        md.append('\n');
        html.append("</table>\n");
    }

    void bullets(List<String> items) {
        items.forEach(i -> md.append("- ").append(i).append('\n'));
        md.append('\n');
        html.append("<ul>\n");
        items.forEach(i -> html.append("<li>").append(inline(i)).append("</li>\n"));
        html.append("</ul>\n");
    }

    /** Links to local files, relative to the report's directory. */
    void links(String lead, List<String[]> textAndHref) {
        md.append(lead);
        html.append("<p>").append(inline(lead));
        for (int i = 0; i < textAndHref.size(); i++) {
            String[] l = textAndHref.get(i);
            String separator = i == 0 ? " " : ", ";
            md.append(separator).append('[').append(l[0]).append("](").append(l[1].replace(" ", "%20")).append(')');
            html.append(separator).append("<a href=\"").append(escape(l[1])).append("\">").append(escape(l[0]))
                    .append("</a>");
        }
        md.append("\n\n");
        html.append("</p>\n");
    }

    void code(String text) {
        md.append("```\n").append(text).append("\n```\n\n");
        html.append("<pre><code>").append(escape(text)).append("</code></pre>\n");
    }

    /** A PNG: linked in Markdown by its path relative to the report, embedded in HTML. */
    void image(String alt, String relativePath, byte[] png) {
        md.append("![").append(alt).append("](").append(relativePath).append(")\n\n");
        html.append("<p><img alt=\"").append(escape(alt)).append("\" src=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(png)).append("\"></p>\n");
    }

    String markdown() {
        return md.toString();
    }

    String html() {
        return html + "</body>\n</html>\n";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String verdictSpan(String cell) {
        for (Verdict v : Verdict.values()) {
            if (cell.equals(v.label())) {
                return "<span class=\"" + v.label() + "\">" + v.label() + "</span>";
            }
        }
        return inline(cell);
    }

    static String inline(String text) {
        String s = escape(text);
        Matcher code = CODE.matcher(s);
        StringBuilder out = new StringBuilder();
        while (code.find()) {
            code.appendReplacement(out, Matcher.quoteReplacement("<code>" + code.group(1) + "</code>"));
        }
        code.appendTail(out);
        Matcher bold = BOLD.matcher(out.toString());
        StringBuilder out2 = new StringBuilder();
        while (bold.find()) {
            bold.appendReplacement(out2, Matcher.quoteReplacement("<strong>" + bold.group(1) + "</strong>"));
        }
        bold.appendTail(out2);
        return out2.toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
