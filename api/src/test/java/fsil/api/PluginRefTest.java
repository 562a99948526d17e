package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PluginRefTest {

    @Test
    void parsesAnIdWithOrderedParameters() {
        PluginRef r = PluginRef.parse("backbone", " pretrained-mlp [ hidden = 256-128 , epochs=10 ] ");
        assertEquals("pretrained-mlp", r.id());
        assertEquals(List.of("hidden", "epochs"), List.copyOf(r.params().keySet()), "in the order given");
        assertEquals("256-128", r.params().get("hidden"));
        assertEquals("pretrained-mlp[hidden=256-128,epochs=10]", r.text());
        assertEquals(r.text(), r.toString());
        assertEquals(new PluginRef("ncm", Map.of()), PluginRef.parse("method", "ncm"));
        assertEquals("ncm", PluginRef.parse("method", "ncm[]").text(), "empty brackets are no parameters");
        assertEquals("ncm", PluginRef.parse("method", "ncm[ , ]").text(), "blank entries are skipped");
        assertEquals("x=y", PluginRef.parse("method", "m[k=x=y]").params().get("k"), "the first '=' splits");
        assertEquals("", PluginRef.parse("method", "m[k=]").params().get("k"), "an empty value is a value");
    }

    @Test
    void mistakesAreOneLineErrorsSayingWhatIsWrong() {
        assertEquals("method 'ppca[q=0' must look like id[key=value,...]", message("ppca[q=0"));
        assertEquals("method 'ppca[q=0]x' must look like id[key=value,...]", message("ppca[q=0]x"));
        assertEquals("method 'ppca[q=0]]' must look like id[key=value,...]", message("ppca[q=0]]"));
        assertEquals("parameter 'q' in method 'ppca[q]' must look like key=value", message("ppca[q]"));
        assertEquals("parameter '=0' in method 'ppca[=0]' must look like key=value", message("ppca[=0]"));
        assertEquals("parameter 'q' given twice in method 'ppca[q=1, q=2]'", message("ppca[q=1, q=2]"));
        assertEquals("empty method in '[q=0]': write method or method[key=value,...]", message("[q=0]"));
        assertEquals("empty method in '  ': write method or method[key=value,...]", message("  "));
        assertEquals("empty method in 'null': write method or method[key=value,...]", message(null));
        assertEquals("method 'a\\nb[' must look like id[key=value,...]", message("a\nb["), "one line");
    }

    static String message(String text) {
        return assertThrows(FsilException.class, () -> PluginRef.parse("method", text)).getMessage();
    }

    @Test
    void parametersAreAnUnmodifiableCopy() {
        Map<String, String> given = new LinkedHashMap<>(Map.of("q", "1"));
        PluginRef r = new PluginRef("ppca", given);
        given.put("lambda", "2");
        assertEquals(Map.of("q", "1"), r.params());
        assertThrows(UnsupportedOperationException.class, () -> r.params().put("x", "y"));
    }

    @Test
    void splitListKeepsCommasInsideBrackets() {
        assertEquals(List.of("ncm", "ppca[q=0,lambda=0.1]", "rbf:ppca[q=0]"),
                PluginRef.splitList("ncm, ppca[q=0,lambda=0.1],rbf:ppca[q=0]"));
        assertEquals(List.of("a", "b"), PluginRef.splitList(" a,, b , "));
        assertEquals(List.of(), PluginRef.splitList(""));
        assertEquals(List.of("a[x=[1,2]]"), PluginRef.splitList("a[x=[1,2]]"), "nested brackets");
        for (String bad : List.of("a[x=1", "a]", "a[x=1]]", "[[a]")) {
            FsilException e = assertThrows(FsilException.class, () -> PluginRef.splitList(bad), bad);
            assertEquals("unbalanced brackets in '" + bad + "'", e.getMessage());
        }
    }

    @Test
    void randomReferencesSurviveTextAndListRoundTrips() {
        Random rnd = new Random(6);
        String idChars = "abcxyz019-_";
        String valueChars = "abz09.-_:/=+ ";
        for (int trial = 0; trial < 300; trial++) {
            List<PluginRef> refs = new ArrayList<>();
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                String id = (char) ('a' + rnd.nextInt(26)) + word(rnd, idChars, rnd.nextInt(8));
                Map<String, String> params = new LinkedHashMap<>();
                for (int m = rnd.nextInt(4); m > 0; m--) {
                    params.put((char) ('a' + rnd.nextInt(26)) + word(rnd, idChars, rnd.nextInt(5)),
                            word(rnd, valueChars, rnd.nextInt(10)).strip());
                }
                PluginRef ref = new PluginRef(id, params);
                assertEquals(ref, PluginRef.parse("method", ref.text()), ref.text());
                refs.add(ref);
            }
            String list = String.join(rnd.nextBoolean() ? "," : " , ", refs.stream().map(PluginRef::text).toList());
            assertEquals(refs, PluginRef.splitList(list).stream().map(t -> PluginRef.parse("method", t)).toList(),
                    list);
        }
    }

    static String word(Random rnd, String chars, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(chars.charAt(rnd.nextInt(chars.length())));
        }
        return sb.toString();
    }
}
