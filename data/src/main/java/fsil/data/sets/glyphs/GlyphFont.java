package fsil.data.sets.glyphs;

import fsil.api.FsilException;

import java.awt.Font;
import java.awt.FontFormatException;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.GlyphVector;
import java.awt.geom.AffineTransform;
import java.awt.geom.PathIterator;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One font file loaded for glyph rendering, with its SHA-256 and a test of whether it <em>really</em> contains a
 * character: the font must map the code point ({@link Font#canDisplay(int)}), the mapped glyph must not be the
 * font's missing glyph, its outline must not be identical (up to translation) to the outline of the .notdef glyph
 * (the box a font draws for any code point it lacks), and it must have a visible extent of at least 2 units at
 * size 64 (which rejects blank and zero-width glyphs).
 */
public final class GlyphFont {
    /** Size at which outlines are extracted. */
    static final float SIZE = 64f;
    static final FontRenderContext FRC = new FontRenderContext(new AffineTransform(), true, true);

    private final Path path;
    private final String sha256;
    private final Font font;
    private final int missingGlyph;
    private final long notdefHash;

    private GlyphFont(Path path, String sha256, Font font) {
        this.path = path;
        this.sha256 = sha256;
        this.font = font;
        this.missingGlyph = font.getMissingGlyphCode();
        GlyphVector missing = font.createGlyphVector(FRC, new int[]{missingGlyph});
        this.notdefHash = outlineHash(missing.getGlyphOutline(0));
    }

    /** Loads a TrueType/OpenType file. */
    public static GlyphFont load(Path path) {
        try {
            byte[] bytes = Files.readAllBytes(path);
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            Font f;
            try (InputStream in = new java.io.ByteArrayInputStream(bytes)) {
                f = Font.createFont(Font.TRUETYPE_FONT, in).deriveFont(SIZE);
            }
            return new GlyphFont(path, sha, f);
        } catch (IOException | FontFormatException e) {
            throw new FsilException("cannot load font " + path + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path path() {
        return path;
    }

    public String sha256() {
        return sha256;
    }

    public Font font() {
        return font;
    }

    /** The glyph outline of {@code cp} at {@link #SIZE}, baseline at y = 0. */
    public Shape outline(int cp) {
        GlyphVector gv = font.createGlyphVector(FRC, new String(Character.toChars(cp)));
        return gv.getGlyphOutline(0);
    }

    /** Whether this font truly draws {@code cp} (see the class comment). */
    public boolean covers(int cp) {
        if (!font.canDisplay(cp)) {
            return false;
        }
        GlyphVector gv = font.createGlyphVector(FRC, new String(Character.toChars(cp)));
        // a supplementary code point gives its glyph plus an invisible filler glyph for the low surrogate
        if (gv.getNumGlyphs() != Character.charCount(cp) || gv.getGlyphCode(0) == missingGlyph) {
            return false;
        }
        Shape s = gv.getGlyphOutline(0);
        Rectangle2D b = s.getBounds2D();
        if (b.getWidth() < 2 || b.getHeight() < 2) {
            return false;
        }
        return outlineHash(s) != notdefHash;
    }

    /** A hash of the outline's path segments with coordinates rounded to 1/16 unit, translation-invariant. */
    static long outlineHash(Shape s) {
        Rectangle2D b = s.getBounds2D();
        PathIterator it = s.getPathIterator(null);
        double[] c = new double[6];
        long h = 1125899906842597L;
        while (!it.isDone()) {
            int type = it.currentSegment(c);
            h = 31 * h + type;
            int n = switch (type) {
                case PathIterator.SEG_MOVETO, PathIterator.SEG_LINETO -> 1;
                case PathIterator.SEG_QUADTO -> 2;
                case PathIterator.SEG_CUBICTO -> 3;
                default -> 0;
            };
            for (int k = 0; k < n; k++) {
                h = 31 * h + Math.round((c[2 * k] - b.getX()) * 16);
                h = 31 * h + Math.round((c[2 * k + 1] - b.getY()) * 16);
            }
            it.next();
        }
        return h;
    }

    @Override
    public String toString() {
        return path.getFileName().toString();
    }
}
