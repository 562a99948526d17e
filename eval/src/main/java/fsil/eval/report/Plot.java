package fsil.eval.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A Plotly figure as plain JSON (data and layout, the format plotly.js reads), built with Jackson. Every string in
 * it, labels included, is written as a JSON string with {@code < > & ' "} and the line separators escaped, so a
 * figure is safe inside an HTML {@code <script>} whatever a user named a method or a dataset.
 */
public final class Plot {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper SAFE_JSON = new ObjectMapper();

    static {
        SAFE_JSON.getFactory().setCharacterEscapes(new HtmlSafe());
    }

    private final ArrayNode data = JSON.createArrayNode();
    private final ObjectNode layout = JSON.createObjectNode();

    /** A figure with a title and axis titles. */
    public static Plot of(String title, String xTitle, String yTitle) {
        Plot p = new Plot();
        p.layout.putObject("title").put("text", title);
        p.layout.putObject("xaxis").putObject("title").put("text", xTitle);
        p.layout.putObject("yaxis").putObject("title").put("text", yTitle);
        p.layout.put("height", 440);
        p.layout.put("width", 780);
        return p;
    }

    /** A new trace of this figure (fill in type, x, y, ...). */
    public ObjectNode trace() {
        return data.addObject();
    }

    public ObjectNode layout() {
        return layout;
    }

    public ArrayNode data() {
        return data;
    }

    /** Number of traces. */
    public int traces() {
        return data.size();
    }

    /** {"data": [...], "layout": {...}} with the HTML-safe escapes. */
    public String json() {
        ObjectNode o = JSON.createObjectNode();
        o.set("data", data);
        o.set("layout", layout);
        return safe(o);
    }

    /** A div and the script that draws this figure into it (plotly.js must be loaded on the page). */
    public String html(String divId) {
        String id = safe(JSON.getNodeFactory().textNode(divId));
        return "<div class=\"fig\" id=" + Html.attribute(divId) + "></div>\n<script>Plotly.newPlot(" + id + ", "
                + safe(data) + ", " + safe(layout) + ", {responsive: true});</script>\n";
    }

    static String safe(Object node) {
        try {
            return SAFE_JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Escapes for JSON inside HTML script elements: no character can end the script or open markup. */
    private static final class HtmlSafe extends CharacterEscapes {
        private final int[] escapes;

        HtmlSafe() {
            escapes = standardAsciiEscapesForJSON();
            for (char c : new char[]{'<', '>', '&', '\'', '"', '/'}) {
                escapes[c] = ESCAPE_STANDARD;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch == 0x2028 || ch == 0x2029) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
