package fsil.eval.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A Plotly figure as plain JSON (data and layout, the format plotly.js reads), built with Jackson. Strings are kept
 * as given (what {@link #data()} and {@link #layout()} show) and escaped twice when the figure is written:
 * <ul>
 * <li>for plotly's label context: plotly.js renders a subset of HTML in every text it draws (trace names, ticks,
 * titles, annotations, hover labels: {@code <b>}, {@code <a href>}, {@code <br>}, ...) and decodes entities, so
 * {@code & < >} of every string become {@code &amp; &lt; &gt;} and show as themselves; only the templates written by
 * fsil ({@code hovertemplate}, {@code texttemplate}) keep their markup;</li>
 * <li>for the HTML script context: the JSON is written with {@code < > & ' " /} and the line separators as
 * backslash-u escapes, so nothing in it can end the {@code <script>} or open markup.</li>
 * </ul>
 */
public final class Plot {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper SAFE_JSON = new ObjectMapper();

    static {
        SAFE_JSON.getFactory().setCharacterEscapes(new HtmlSafe());
    }

    private final ArrayNode data = JSON.createArrayNode();
    private final ObjectNode layout = JSON.createObjectNode();

    /**
     * A figure with a title and axis titles, as wide as its container (no fixed width: plotly's autosize and the
     * responsive option of {@link #html(String)} follow the page), with margins that grow to fit tick labels and
     * axis titles (automargin) so that titles do not overlap the plot.
     */
    public static Plot of(String title, String xTitle, String yTitle) {
        Plot p = new Plot();
        p.layout.putObject("title").put("text", title).put("x", 0.02).put("xanchor", "left");
        for (String axis : new String[]{"xaxis", "yaxis"}) {
            ObjectNode a = p.layout.putObject(axis);
            a.putObject("title").put("text", axis.equals("xaxis") ? xTitle : yTitle).put("standoff", 12);
            a.put("automargin", true);
        }
        p.layout.put("height", 440);
        p.layout.put("autosize", true);
        p.layout.putObject("margin").put("l", 70).put("r", 30).put("t", 60).put("b", 60);
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

    /** {"data": [...], "layout": {...}}, labels escaped for plotly, with the HTML-safe escapes. */
    public String json() {
        ObjectNode o = JSON.createObjectNode();
        o.set("data", labels(data));
        o.set("layout", labels(layout));
        return safe(o);
    }

    /** A div and the script that draws this figure into it (plotly.js must be loaded on the page). */
    public String html(String divId) {
        String id = safe(JSON.getNodeFactory().textNode(divId));
        return "<div class=\"fig\" id=" + Html.attribute(divId) + "></div>\n<script>Plotly.newPlot(" + id + ", "
                + safe(labels(data)) + ", " + safe(labels(layout)) + ", {responsive: true});</script>\n";
    }

    /** Fields whose strings are plotly templates written by fsil: their markup is meant. */
    private static final java.util.Set<String> TEMPLATES = java.util.Set.of("hovertemplate", "texttemplate");

    /** A text shown as itself by plotly: {@code & < >} as entities, which plotly decodes. */
    public static String label(String s) {
        if (s.indexOf('&') < 0 && s.indexOf('<') < 0 && s.indexOf('>') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A copy of the node with every string but the templates' escaped by {@link #label(String)}. */
    static com.fasterxml.jackson.databind.JsonNode labels(com.fasterxml.jackson.databind.JsonNode node) {
        if (node.isTextual()) {
            return JSON.getNodeFactory().textNode(label(node.asText()));
        }
        if (node.isArray()) {
            ArrayNode a = JSON.createArrayNode();
            node.forEach(e -> a.add(labels(e)));
            return a;
        }
        if (node.isObject()) {
            ObjectNode o = JSON.createObjectNode();
            node.fields().forEachRemaining(f -> o.set(f.getKey(),
                    TEMPLATES.contains(f.getKey()) ? f.getValue().deepCopy() : labels(f.getValue())));
            return o;
        }
        return node.deepCopy();
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
