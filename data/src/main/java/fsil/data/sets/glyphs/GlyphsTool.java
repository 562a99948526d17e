package fsil.data.sets.glyphs;

import fsil.core.random.RandomStreams;
import fsil.data.RawDataset;
import fsil.data.io.AtomicFiles;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maintenance commands for the glyph dataset (run with {@code -Djava.awt.headless=true}):
 * <ul>
 *   <li>{@code splits DIR}: writes {@code background.txt}, {@code validation.txt}, {@code evaluation.txt} into
 *       DIR. Rule: every script with at least {@link GlyphsDataset#MIN_PER_SCRIPT} selected characters in the
 *       installed fonts, sorted by name, shuffled with stream {@code derive(1993, "glyph-scripts")}; the first
 *       60% (rounded) are background, the next 10% validation, the rest evaluation. This is how the committed
 *       files were made (Debian 12, fonts-noto-core 20201225-1 and fonts-dejavu-core).</li>
 *   <li>{@code contact-sheet PNG CACHE_DIR [CLASSES [INSTANCES]]}: a grid of instances (columns) of classes
 *       spread over the scripts (rows), scaled 2x.</li>
 * </ul>
 */
public final class GlyphsTool {

    private GlyphsTool() {
    }

    /** The script split rule (see the class comment). */
    public static Map<String, List<String>> splitScripts(List<String> scripts) {
        List<String> s = new ArrayList<>(scripts.stream().sorted().toList());
        int[] perm = RandomStreams.permutation(s.size(), RandomStreams.create(RandomStreams.derive(1993,
                "glyph-scripts")));
        List<String> shuffled = new ArrayList<>();
        for (int i : perm) {
            shuffled.add(s.get(i));
        }
        int nb = (int) Math.round(0.6 * s.size());
        int nv = (int) Math.round(0.1 * s.size());
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put("background", shuffled.subList(0, nb).stream().sorted().toList());
        out.put("validation", shuffled.subList(nb, nb + nv).stream().sorted().toList());
        out.put("evaluation", shuffled.subList(nb + nv, s.size()).stream().sorted().toList());
        return out;
    }

    static void writeSplits(Path dir) {
        List<GlyphFont> fonts = GlyphsDataset.fontFiles().stream().map(GlyphFont::load).toList();
        List<String> scripts = GlyphSelection.select(fonts, null, Integer.MAX_VALUE, GlyphsDataset.MIN_PER_SCRIPT)
                .stream().map(GlyphSelection.GlyphClass::script).distinct().toList();
        Map<String, List<String>> split = splitScripts(scripts);
        for (Map.Entry<String, List<String>> e : split.entrySet()) {
            StringBuilder sb = new StringBuilder("# glyphs " + e.getKey() + " scripts (Java Character.UnicodeScript"
                    + " names), disjoint from the other two lists.\n# Produced by GlyphsTool.splitScripts; see its"
                    + " javadoc.\n");
            e.getValue().forEach(v -> sb.append(v).append('\n'));
            AtomicFiles.writeString(dir.resolve(e.getKey() + ".txt"), sb.toString());
            System.out.println(e.getKey() + ": " + e.getValue().size() + " scripts");
        }
    }

    /** Number of FSCIL sessions after the base session, and their ways (Tao et al.'s CIFAR/mini setting). */
    public static final int FSCIL_SESSIONS = 8;
    public static final int FSCIL_WAYS = 5;

    /**
     * Writes {@code fscil_sessions.txt}: {@value #FSCIL_SESSIONS} sessions of {@value #FSCIL_WAYS} classes drawn
     * without replacement from the evaluation-script classes of the default dataset (class ids shuffled with
     * stream {@code derive(1993, "glyph-fscil")}), each listed by code point.
     */
    static void writeFscil(Path file, Path cacheDir) {
        RawDataset raw = GlyphsDataset.load(GlyphsDataset.Params.defaults(), cacheDir);
        int[] novel = raw.splits().novel();
        int[] perm = RandomStreams.permutation(novel.length, RandomStreams.create(RandomStreams.derive(1993,
                "glyph-fscil")));
        StringBuilder sb = new StringBuilder("# glyphs FSCIL: " + FSCIL_SESSIONS + " sessions of " + FSCIL_WAYS
                + "-way " + GlyphsDataset.FSCIL_SHOTS + "-shot novel classes after the base session (all background"
                + " classes).\n# Classes by code point; produced by GlyphsTool.writeFscil (see its javadoc).\n");
        for (int s = 0; s < FSCIL_SESSIONS; s++) {
            sb.append("session");
            for (int w = 0; w < FSCIL_WAYS; w++) {
                String name = raw.classes().name(novel[perm[s * FSCIL_WAYS + w]]);
                sb.append(' ').append(name, 0, name.indexOf(' '));
            }
            sb.append('\n');
        }
        AtomicFiles.writeString(file, sb.toString());
    }

    /** Writes a contact sheet of {@code classes} classes (rows, spread evenly over the ids) x {@code instances}. */
    public static void contactSheet(RawDataset raw, Path png, int classes, int instances) {
        int side = raw.imageSide();
        int scale = 2;
        int cell = side * scale + 2;
        int k = raw.classes().size();
        BufferedImage img = new BufferedImage(instances * cell + 2, classes * cell + 2, BufferedImage.TYPE_BYTE_GRAY);
        var x = raw.train().features();
        int[] y = raw.train().labels();
        for (int r = 0; r < classes; r++) {
            int c = (int) ((long) r * k / classes);
            int shown = 0;
            for (int i = 0; i < y.length && shown < instances; i++) {
                if (y[i] != c) {
                    continue;
                }
                for (int py = 0; py < side * scale; py++) {
                    for (int pxl = 0; pxl < side * scale; pxl++) {
                        int v = Math.round(x.get(i, (py / scale) * side + pxl / scale) * 255);
                        img.getRaster().setSample(2 + shown * cell + pxl, 2 + r * cell + py, 0, v);
                    }
                }
                shown++;
            }
        }
        try {
            ImageIO.write(img, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) {
        switch (args[0]) {
            case "splits" -> writeSplits(Path.of(args[1]));
            case "contact-sheet" -> {
                GlyphsDataset.Params p = GlyphsDataset.Params.defaults();
                long t0 = System.nanoTime();
                RawDataset raw = GlyphsDataset.load(p, Path.of(args[2]));
                System.out.printf("loaded %s: %d classes, %d train, %d test in %.1f s%n", raw.name(),
                        raw.classes().size(), raw.train().size(), raw.test().size(), (System.nanoTime() - t0) / 1e9);
                contactSheet(raw, Path.of(args[1]), args.length > 3 ? Integer.parseInt(args[3]) : 16,
                        args.length > 4 ? Integer.parseInt(args[4]) : 15);
            }
            case "fscil" -> writeFscil(Path.of(args[1]), Path.of(args[2]));
            default -> throw new IllegalArgumentException("commands: splits DIR | contact-sheet PNG CACHE_DIR"
                    + " | fscil FILE CACHE_DIR");
        }
    }
}
