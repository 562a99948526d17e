package fsil.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User strings in figures are escaped for plotly's label context (plotly renders {@code <b>}, {@code <a href>} and
 * decodes entities in every text it draws) and for the HTML script context the figure is written in.
 */
class PlotLabelTest {
    static final String BOLD = "<b>x</b>";
    static final String LINK = "<a href=\"https://example.org/\">y</a> & co";

    static JsonNode json(Plot p) throws Exception {
        return new ObjectMapper().readTree(p.json());
    }

    @Test
    void markupInLabelsIsShownAsText() throws Exception {
        Plot bars = Figures.bars("title " + BOLD, "axis " + LINK, List.of(BOLD, LINK), new double[]{1, 2},
                new double[]{0.1, 0.2});
        JsonNode j = json(bars);
        assertEquals("&lt;b&gt;x&lt;/b&gt;", j.at("/data/0/x/0").asText(), "a category (tick label)");
        assertEquals("&lt;a href=\"https://example.org/\"&gt;y&lt;/a&gt; &amp; co", j.at("/data/0/x/1").asText());
        assertEquals("title &lt;b&gt;x&lt;/b&gt;", j.at("/layout/title/text").asText());
        assertTrue(j.at("/layout/yaxis/title/text").asText().startsWith("axis &lt;a href"), "axis title");
        assertEquals(BOLD, bars.data().get(0).get("x").get(0).asText(), "the figure keeps the raw string");

        Plot lines = Figures.lines("t", "x", "y", List.of(new Figures.Series(LINK, new double[]{1, 2},
                new double[]{3, 4}, new double[]{0.5, 0.5})));
        for (JsonNode trace : json(lines).get("data")) {
            assertFalse(trace.get("name").asText().contains("<"), "a trace name: " + trace.get("name"));
        }
        Plot cd = Figures.cdDiagram("cd", List.of(BOLD, LINK, "c"), new double[]{1.5, 1.5, 3}, 1.2,
                new int[][]{{0, 1}});
        String cdJson = cd.json();
        assertFalse(new ObjectMapper().readTree(cdJson).toString().contains("<b>"), "CD labels: " + cdJson);
    }

    @Test
    void templatesWrittenByFsilKeepTheirMarkup() throws Exception {
        Plot h = Figures.heatmap("m " + BOLD, new double[][]{{50, 60}, {70, 80}});
        JsonNode j = json(h);
        assertTrue(j.at("/data/0/hovertemplate").asText().endsWith("<extra></extra>"));
        assertEquals("m &lt;b&gt;x&lt;/b&gt;", j.at("/layout/title/text").asText());
    }

    @Test
    void aLabelCannotEndTheScriptOrOpenMarkup() {
        String html = Figures.bars("</script><script>alert(1)</script>", "y", List.of("</SCRIPT>", "<!--"),
                new double[]{1, 2}, null).html("f'\"<");
        assertEquals(1, html.split("</script>", -1).length - 1, html);
        String script = html.substring(html.indexOf("<script>") + "<script>".length(), html.lastIndexOf("</script>"));
        assertFalse(script.contains("<") || script.contains(">"), script);
        assertTrue(html.startsWith("<div class=\"fig\" id=\"f&#39;&quot;&lt;\">"), html);
    }
}
