package fsil.data.sets.glyphs;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which code points can be glyph classes. A character qualifies when it is a letter (general category Lu, Lt or
 * Lo; modifier letters and lowercase letters are excluded, so cased scripts contribute their capitals only and
 * "o"/"O" are not two classes), is in the BMP, SMP or SIP, has no canonical or compatibility decomposition (so
 * accented variants such as "A with acute", Arabic presentation forms and other compatibility characters are not
 * classes of their own; precomposed Hangul syllables are excluded for the same reason) and
 * belongs to a real script (not COMMON, INHERITED or UNKNOWN). Scripts are Java's {@link Character.UnicodeScript}
 * names, the "alphabets".
 */
public final class GlyphCharacters {
    /** Last code point scanned (end of the Supplementary Ideographic Plane). */
    static final int LAST = 0x2FFFF;

    private GlyphCharacters() {
    }

    /** Whether {@code cp} can be a class (see the class comment). */
    public static boolean qualifies(int cp) {
        int type = Character.getType(cp);
        if (type != Character.UPPERCASE_LETTER && type != Character.TITLECASE_LETTER
                && type != Character.OTHER_LETTER) {
            return false;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        if (script == Character.UnicodeScript.COMMON || script == Character.UnicodeScript.INHERITED
                || script == Character.UnicodeScript.UNKNOWN) {
            return false;
        }
        String s = new String(Character.toChars(cp));
        return Normalizer.normalize(s, Normalizer.Form.NFKD).equals(s);
    }

    /** Qualifying code points of the given scripts (all scripts when {@code scripts} is null), by script name. */
    public static Map<String, List<Integer>> byScript(Set<String> scripts) {
        Map<String, List<Integer>> out = new TreeMap<>();
        for (int cp = 0; cp <= LAST; cp++) {
            if (!qualifies(cp)) {
                continue;
            }
            String script = Character.UnicodeScript.of(cp).name();
            if (scripts == null || scripts.contains(script)) {
                out.computeIfAbsent(script, k -> new ArrayList<>()).add(cp);
            }
        }
        return out;
    }
}
