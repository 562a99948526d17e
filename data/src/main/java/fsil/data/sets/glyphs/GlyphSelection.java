package fsil.data.sets.glyphs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses the glyph classes: for every script, its qualifying characters ({@link GlyphCharacters}) that at least
 * one font truly draws, minus look-alikes, thinned to at most {@code maxPerScript} characters; scripts with fewer
 * than {@code minPerScript} characters are dropped.
 * <p>
 * Look-alikes: scripts are visited in name order and characters in code-point order; a character is dropped when
 * its outline in its first covering font (fonts sorted by path) is identical, up to translation, to the outline of
 * an earlier candidate character in that same font. This removes e.g. Greek capital alpha and Latin A, whose
 * outlines equal Cyrillic A's in DejaVu. The selection therefore depends on all scripts considered: callers that
 * want a subset select over all listed scripts first and filter afterwards, so a class is the same in every
 * subset. Thinning keeps the characters at positions floor(k m / max),
 * k = 0..max-1, of the m remaining ones, spreading the choice over the script's blocks.
 */
public final class GlyphSelection {

    /** One class: a code point, its script and the fonts (indices into the font list) that draw it. */
    public record GlyphClass(int codePoint, String script, int[] fonts) {

        public String name() {
            String n = Character.getName(codePoint);
            return n != null ? n : String.format("U+%04X", codePoint);
        }
    }

    private GlyphSelection() {
    }

    /** The classes of the given scripts (null: all scripts), in script-name then code-point order. */
    public static List<GlyphClass> select(List<GlyphFont> fonts, Set<String> scripts, int maxPerScript,
                                          int minPerScript) {
        Map<String, List<Integer>> candidates = GlyphCharacters.byScript(scripts);
        Set<Long> seen = new HashSet<>();
        List<GlyphClass> out = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : candidates.entrySet()) {
            List<GlyphClass> kept = new ArrayList<>();
            for (int cp : e.getValue()) {
                int[] covering = new int[fonts.size()];
                int n = 0;
                for (int f = 0; f < fonts.size(); f++) {
                    if (fonts.get(f).covers(cp)) {
                        covering[n++] = f;
                    }
                }
                if (n == 0) {
                    continue;
                }
                long key = GlyphFont.outlineHash(fonts.get(covering[0]).outline(cp)) * 31 + covering[0];
                if (!seen.add(key)) {
                    continue;
                }
                kept.add(new GlyphClass(cp, e.getKey(), java.util.Arrays.copyOf(covering, n)));
            }
            if (kept.size() < minPerScript) {
                continue;
            }
            int m = kept.size();
            int take = Math.min(maxPerScript, m);
            for (int k = 0; k < take; k++) {
                out.add(kept.get((int) ((long) k * m / take)));
            }
        }
        return out;
    }
}
