package fsil.data.sets.glyphs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.SplitSet;
import fsil.data.io.AtomicFiles;
import fsil.data.io.NpyReader;
import fsil.data.io.NpyWriter;
import fsil.data.split.SplitFiles;
import org.apache.commons.rng.UniformRandomProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code glyphs}: an Omniglot-style many-class image dataset generated deterministically from a pinned set of font
 * files: the committed manifest {@value #MANIFEST} lists each file (fonts-dejavu-core and fonts-noto-core) with
 * its SHA-256; a missing or different file is an error that lists the difference and the package to install, and
 * any other installed font is ignored ({@link #pinnedFonts()}).
 * One class per character ({@link GlyphSelection}), grouped by Unicode script ("alphabet"); each class has
 * {@code instances} 28x28 renderings ({@link GlyphRenderer}) in the fonts that truly draw it (a seeded shuffle of
 * those fonts, cycled when there are fewer fonts than instances), each with its own random distortion. The first
 * {@code train_per_class} instances of a class are training samples, the rest test samples.
 * <p>
 * Background, validation and evaluation scripts are disjoint and committed in
 * {@code fsil/splits/glyphs/{background,validation,evaluation}.txt}; they become the base, validation and novel
 * classes. Scripts present on a machine but not listed are ignored; listed scripts without fonts are skipped.
 * <p>
 * Name syntax: {@code glyphs[:key=value,...]} with {@code scripts=LATIN+GREEK} (a subset of the listed scripts;
 * default all), {@code max_per_script=20}, {@code instances=20}, {@code train_per_class=15}, {@code seed=0}.
 * <p>
 * The images are cached under {@code <cache>/glyphs/<key>/} as {@code images.npy} (uint8, n x 28 x 28, classes in
 * id order, instances in order), {@code labels.npy} (int32) and {@code meta.json} (parameters, the font files
 * with their SHA-256, the classes with code point, name, script and fonts, the split, the generation time). The
 * key is a hash of the generator version, the parameters and the SHA-256 of every font file, so a different font
 * set never reuses a stale cache.
 */
public final class GlyphsDataset {
    public static final String NAME = "glyphs";
    /** Bumped whenever the generator's output changes for the same fonts and parameters. */
    public static final int GENERATOR_VERSION = 1;
    public static final int MIN_PER_SCRIPT = 14;
    public static final String FONT_PACKAGE = "fonts-noto-core";

    /** Generation parameters. */
    public record Params(List<String> scripts, int maxPerScript, int instances, int trainPerClass, long seed) {

        public Params {
            scripts = List.copyOf(scripts);
            if (maxPerScript < 1 || instances < 2 || trainPerClass < 1 || trainPerClass >= instances) {
                throw new FsilException("glyphs: need max_per_script >= 1, instances >= 2 and 1 <= train_per_class <"
                        + " instances; got max_per_script=" + maxPerScript + ", instances=" + instances
                        + ", train_per_class=" + trainPerClass);
            }
        }

        public static Params defaults() {
            return new Params(List.of(), 20, 20, 15, 0);
        }

        /** Canonical name (only non-default scripts are listed; empty = all). */
        public String name() {
            return NAME + ":scripts=" + (scripts.isEmpty() ? "all" : String.join("+", scripts)) + ",max_per_script="
                    + maxPerScript + ",instances=" + instances + ",train_per_class=" + trainPerClass + ",seed=" + seed;
        }
    }

    /** The committed script split. */
    public record ScriptSplit(List<String> background, List<String> validation, List<String> evaluation) {

        public static ScriptSplit committed() {
            return new ScriptSplit(SplitFiles.resourceLines(NAME, "background.txt"),
                    SplitFiles.resourceLines(NAME, "validation.txt"), SplitFiles.resourceLines(NAME, "evaluation.txt"));
        }

        public List<String> all() {
            return Stream.of(background, validation, evaluation).flatMap(List::stream).sorted().toList();
        }
    }

    private GlyphsDataset() {
    }

    /**
     * Generation parameters from their values; {@code scripts} is "all" or script names joined by '+' (any case),
     * each of which must be in the committed split.
     */
    public static Params params(String scripts, int maxPerScript, int instances, int trainPerClass, long seed) {
        String v = scripts.strip();
        List<String> list = v.isEmpty() || v.equalsIgnoreCase("all") ? List.of()
                : new ArrayList<>(new TreeSet<>(Arrays.stream(v.split("\\+"))
                .map(x -> x.strip().toUpperCase(Locale.ROOT)).toList()));
        return validated(new Params(list, maxPerScript, instances, trainPerClass, seed));
    }

    private static Params validated(Params p) {
        List<String> scripts = p.scripts();
        ScriptSplit split = ScriptSplit.committed();
        for (String s : scripts) {
            if (!split.all().contains(s)) {
                throw new FsilException("glyphs: script '" + s + "' is not in the committed split; valid scripts: "
                        + String.join(", ", split.all()));
            }
        }
        return p;
    }

    /** Font directories: {@code $FSIL_FONT_DIRS} (colon-separated) or {@code /usr/share/fonts}. */
    public static List<Path> fontDirs() {
        String env = System.getenv("FSIL_FONT_DIRS");
        if (env != null && !env.isBlank()) {
            return Arrays.stream(env.split(":")).filter(s -> !s.isBlank()).map(Path::of).toList();
        }
        return List.of(Path.of("/usr/share/fonts"));
    }

    /** The committed font manifest (classpath resource). */
    public static final String MANIFEST = "fsil/data/glyphs/fonts.manifest";

    /** A font file of the manifest: its path relative to a font directory, SHA-256 and Debian package. */
    public record PinnedFont(String path, String sha256, String debianPackage) {
    }

    /** The entries of {@link #MANIFEST}. */
    public static List<PinnedFont> manifest() {
        List<PinnedFont> out = new ArrayList<>();
        try (InputStream in = GlyphsDataset.class.getClassLoader().getResourceAsStream(MANIFEST)) {
            if (in == null) {
                throw new FsilException("glyphs: the font manifest " + MANIFEST + " is missing from the classpath");
            }
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] f = t.split("\\s+");
                out.add(new PinnedFont(f[2], f[0], f[1]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(MANIFEST + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** The pinned font files found on this machine, sorted by path, with their SHA-256. */
    public record PinnedFonts(List<Path> files, List<String> hashes) {
    }

    /**
     * Finds every file of the manifest in the font directories (the first directory that has it) and checks its
     * SHA-256. Fonts that are not in the manifest are ignored, so installing other fonts never changes the data.
     *
     * @throws FsilException listing the missing files and the files whose checksum differs, with the Debian
     *                       packages to install
     */
    public static PinnedFonts pinnedFonts() {
        return pinnedFonts(fontDirs());
    }

    /** {@link #pinnedFonts()} looking in {@code dirs}. */
    static PinnedFonts pinnedFonts(List<Path> dirs) {
        List<PinnedFont> manifest = manifest();
        Map<String, List<String>> missing = new java.util.TreeMap<>();
        List<String> differ = new ArrayList<>();
        Set<String> packages = new TreeSet<>();
        List<Path> files = new ArrayList<>();
        Map<Path, String> hashes = new java.util.HashMap<>();
        for (PinnedFont f : manifest) {
            Path found = null;
            for (Path dir : dirs) {
                Path candidate = dir.resolve(f.path());
                if (Files.isRegularFile(candidate)) {
                    found = candidate;
                    break;
                }
            }
            if (found == null) {
                missing.computeIfAbsent(f.debianPackage(), k -> new ArrayList<>()).add(f.path());
                packages.add(f.debianPackage());
                continue;
            }
            String sha = sha256(found);
            if (!sha.equals(f.sha256())) {
                differ.add(found + " (expected " + f.sha256().substring(0, 12) + "..., found " + sha.substring(0, 12)
                        + "...)");
                packages.add(f.debianPackage());
                continue;
            }
            files.add(found);
            hashes.put(found, sha);
        }
        if (!missing.isEmpty() || !differ.isEmpty()) {
            StringBuilder sb = new StringBuilder("glyphs: the fonts in " + dirs + " do not match the pinned"
                    + " manifest " + MANIFEST + ":");
            for (Map.Entry<String, List<String>> e : missing.entrySet()) {
                List<String> l = e.getValue();
                sb.append(" ").append(l.size()).append(" file").append(l.size() == 1 ? "" : "s").append(" of ")
                        .append(e.getKey()).append(" missing (").append(String.join(", ", l.subList(0,
                                Math.min(3, l.size())))).append(l.size() > 3 ? ", ... and " + (l.size() - 3)
                                + " more" : "").append(");");
            }
            if (!differ.isEmpty()) {
                sb.append(" ").append(differ.size()).append(" file").append(differ.size() == 1 ? "" : "s")
                        .append(" with a different SHA-256 (").append(String.join(", ", differ.subList(0,
                                Math.min(3, differ.size())))).append(differ.size() > 3 ? ", ... and "
                                + (differ.size() - 3) + " more" : "").append(");");
            }
            sb.append(" install the Debian package").append(packages.size() == 1 ? "" : "s").append(" (apt-get install ")
                    .append(String.join(" ", packages)).append("; the manifest was made with Debian 12's versions,"
                            + " see its header)");
            throw new FsilException(sb.toString());
        }
        files.sort((a, b) -> a.toString().compareTo(b.toString()));
        return new PinnedFonts(List.copyOf(files), files.stream().map(hashes::get).toList());
    }

    /** The pinned font files (see {@link #pinnedFonts()}), sorted by path. */
    public static List<Path> fontFiles() {
        return pinnedFonts().files();
    }

    /** Null when every pinned font is installed unchanged, else what differs and what to install. */
    public static String missing() {
        try {
            pinnedFonts();
            return null;
        } catch (FsilException e) {
            return e.getMessage();
        }
    }

    static String sha256(Path file) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file),
                MessageDigest.getInstance("SHA-256"))) {
            DigestInputStream din = (DigestInputStream) in;
            byte[] buf = new byte[1 << 16];
            while (din.read(buf) >= 0) {
                // digesting
            }
            return HexFormat.of().formatHex(din.getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cache key: SHA-256 over generator version, parameters and every font file's path and SHA-256. */
    static String cacheKey(Params p, List<Path> fonts, List<String> fontHashes) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(("v" + GENERATOR_VERSION + "|" + p.name()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (int i = 0; i < fonts.size(); i++) {
                md.update(("|" + fonts.get(i).getFileName() + "=" + fontHashes.get(i))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest()).substring(0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The generated images, labels and metadata. */
    public record Generated(byte[] images, int[] labels, List<GlyphSelection.GlyphClass> classes, List<Path> fonts,
                            List<String> fontHashes, double seconds) {
    }

    /** Generates the images (no caching). */
    public static Generated generate(Params p) {
        long t0 = System.nanoTime();
        List<Path> files = fontFiles();
        List<GlyphFont> fonts = files.stream().map(GlyphFont::load).toList();
        ScriptSplit split = ScriptSplit.committed();
        List<GlyphSelection.GlyphClass> all = GlyphSelection.select(fonts, new TreeSet<>(split.all()),
                p.maxPerScript(), MIN_PER_SCRIPT);
        Set<String> wanted = p.scripts().isEmpty() ? null : new LinkedHashSet<>(p.scripts());
        List<GlyphSelection.GlyphClass> classes = all.stream()
                .filter(c -> wanted == null || wanted.contains(c.script())).toList();
        if (classes.isEmpty()) {
            throw new FsilException("glyphs: none of the requested scripts " + p.scripts() + " has at least "
                    + MIN_PER_SCRIPT + " characters in the installed fonts; install " + FONT_PACKAGE);
        }
        int inst = p.instances();
        int px = GlyphRenderer.SIDE * GlyphRenderer.SIDE;
        byte[] images = new byte[classes.size() * inst * px];
        int[] labels = new int[classes.size() * inst];
        long base = RandomStreams.derive(p.seed(), "glyphs");
        ThreadLocal<GlyphRenderer> renderers = ThreadLocal.withInitial(GlyphRenderer::new);
        // Classes are independent (own stream, own output slice), so the parallel loop is deterministic.
        IntStream.range(0, classes.size()).parallel().forEach(c -> {
            GlyphSelection.GlyphClass gc = classes.get(c);
            UniformRandomProvider rng = RandomStreams.child(base, gc.codePoint());
            int[] order = gc.fonts().clone();
            RandomStreams.shuffle(order, rng);
            GlyphRenderer r = renderers.get();
            for (int i = 0; i < inst; i++) {
                GlyphFont f = fonts.get(order[i % order.length]);
                int row = c * inst + i;
                r.render(f.outline(gc.codePoint()), rng, images, row * px);
                labels[row] = c;
            }
        });
        List<String> hashes = fonts.stream().map(GlyphFont::sha256).toList();
        return new Generated(images, labels, classes, files, hashes, (System.nanoTime() - t0) / 1e9);
    }

    /** Loads from the cache, generating (and caching atomically) on a miss. */
    public static RawDataset load(Params p, Path cacheDir) {
        PinnedFonts pinned = pinnedFonts();
        List<Path> files = pinned.files();
        List<String> hashes = pinned.hashes();
        Path dir = cacheDir.resolve(NAME).resolve(cacheKey(p, files, hashes));
        Path imagesFile = dir.resolve("images.npy");
        Path labelsFile = dir.resolve("labels.npy");
        Path metaFile = dir.resolve("meta.json");
        Meta meta;
        byte[] images;
        int[] labels;
        if (Files.exists(metaFile) && Files.exists(imagesFile) && Files.exists(labelsFile)) {
            meta = readMeta(metaFile);
            images = NpyReader.read(imagesFile).toUint8();
            labels = NpyReader.read(labelsFile).toLabels();
        } else {
            Generated g = generate(p);
            images = g.images();
            labels = g.labels();
            meta = Meta.of(p, g);
            int n = labels.length;
            NpyWriter.writeUint8(imagesFile, images, new int[]{n, GlyphRenderer.SIDE, GlyphRenderer.SIDE});
            NpyWriter.writeInt32(labelsFile, labels);
            writeMeta(metaFile, meta); // written last: its presence marks a complete cache entry
        }
        return toRaw(p, meta, images, labels);
    }

    static RawDataset toRaw(Params p, Meta meta, byte[] images, int[] labels) {
        int px = GlyphRenderer.SIDE * GlyphRenderer.SIDE;
        int k = meta.classes.size();
        int inst = p.instances();
        if (labels.length != k * inst || images.length != labels.length * px) {
            throw new InvalidDataException("glyphs cache is inconsistent (" + labels.length + " labels, " + k
                    + " classes x " + inst + " instances); delete the cache directory and retry");
        }
        int train = p.trainPerClass();
        int test = inst - train;
        float[] xTrain = new float[k * train * px];
        float[] xTest = new float[k * test * px];
        int[] yTrain = new int[k * train];
        int[] yTest = new int[k * test];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < inst; i++) {
                boolean isTrain = i < train;
                int row = isTrain ? c * train + i : c * test + (i - train);
                float[] dst = isTrain ? xTrain : xTest;
                int src = (c * inst + i) * px;
                for (int j = 0; j < px; j++) {
                    dst[row * px + j] = (images[src + j] & 0xFF) / 255f;
                }
                (isTrain ? yTrain : yTest)[row] = labels[c * inst + i];
            }
        }
        List<String> names = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        for (MetaClass mc : meta.classes) {
            names.add(mc.codepoint + " " + mc.name);
            groups.add(mc.script);
        }
        ScriptSplit split = ScriptSplit.committed();
        int[] base = idsOf(groups, split.background());
        int[] val = idsOf(groups, split.validation());
        int[] novel = idsOf(groups, split.evaluation());
        return new RawDataset(p.name(), new ClassTable(names, groups),
                new LabeledData(FeatureMatrix.wrap(k * train, px, xTrain), yTrain),
                new LabeledData(FeatureMatrix.wrap(k * test, px, xTest), yTest),
                new SplitSet(base, val, novel, fscil(meta, base, train)), GlyphRenderer.SIDE);
    }

    /** Shots per class of an FSCIL session. */
    public static final int FSCIL_SHOTS = 5;

    /**
     * The committed FSCIL sessions ({@code fsil/splits/glyphs/fscil_sessions.txt}: one line {@code session U+XXXX
     * ...} per session, the session's classes by code point), resolved against the generated classes: base = all
     * background classes present; the shots of a class are its first {@value #FSCIL_SHOTS} training instances
     * (instances are independent random renderings, so the first ones are as good as a random draw). Empty when a
     * listed character is not available with the installed fonts or the requested scripts.
     */
    static java.util.Optional<SplitSet.FscilSplit> fscil(Meta meta, int[] base, int trainPerClass) {
        if (!SplitFiles.hasResource(NAME, "fscil_sessions.txt")) {
            return java.util.Optional.empty();
        }
        Map<String, Integer> ids = new java.util.HashMap<>();
        for (MetaClass mc : meta.classes) {
            ids.put(mc.codepoint, mc.id);
        }
        int shots = Math.min(FSCIL_SHOTS, trainPerClass);
        List<int[]> sessions = new ArrayList<>();
        for (String line : SplitFiles.resourceLines(NAME, "fscil_sessions.txt")) {
            String[] parts = line.split("\\s+");
            List<Integer> rows = new ArrayList<>();
            for (int i = 1; i < parts.length; i++) {
                Integer c = ids.get(parts[i]);
                if (c == null) {
                    return java.util.Optional.empty();
                }
                for (int s = 0; s < shots; s++) {
                    rows.add(c * trainPerClass + s);
                }
            }
            sessions.add(rows.stream().mapToInt(Integer::intValue).toArray());
        }
        return java.util.Optional.of(new SplitSet.FscilSplit(base, sessions));
    }

    private static int[] idsOf(List<String> groups, List<String> scripts) {
        Set<String> s = new java.util.HashSet<>(scripts);
        return IntStream.range(0, groups.size()).filter(i -> s.contains(groups.get(i))).toArray();
    }

    // ------------------------------------------------------------------ metadata

    /** meta.json: everything needed to interpret and audit the cache. */
    public static final class Meta {
        public int generatorVersion;
        public String name;
        public Map<String, Object> params;
        public double generationSeconds;
        public String javaVersion;
        public List<MetaFont> fonts;
        public Map<String, List<String>> scripts;
        public List<MetaClass> classes;

        static Meta of(Params p, Generated g) {
            Meta m = new Meta();
            m.generatorVersion = GENERATOR_VERSION;
            m.name = p.name();
            m.params = new LinkedHashMap<>();
            m.params.put("scripts", p.scripts());
            m.params.put("max_per_script", p.maxPerScript());
            m.params.put("instances", p.instances());
            m.params.put("train_per_class", p.trainPerClass());
            m.params.put("seed", p.seed());
            m.params.put("min_per_script", MIN_PER_SCRIPT);
            m.params.put("image_side", GlyphRenderer.SIDE);
            m.generationSeconds = Math.round(g.seconds() * 10) / 10.0;
            m.javaVersion = System.getProperty("java.version");
            m.fonts = new ArrayList<>();
            for (int i = 0; i < g.fonts().size(); i++) {
                MetaFont f = new MetaFont();
                f.file = g.fonts().get(i).toString();
                f.sha256 = g.fontHashes().get(i);
                m.fonts.add(f);
            }
            ScriptSplit split = ScriptSplit.committed();
            Set<String> present = new TreeSet<>();
            g.classes().forEach(c -> present.add(c.script()));
            m.scripts = new LinkedHashMap<>();
            m.scripts.put("background", split.background().stream().filter(present::contains).toList());
            m.scripts.put("validation", split.validation().stream().filter(present::contains).toList());
            m.scripts.put("evaluation", split.evaluation().stream().filter(present::contains).toList());
            m.classes = new ArrayList<>();
            for (int c = 0; c < g.classes().size(); c++) {
                GlyphSelection.GlyphClass gc = g.classes().get(c);
                MetaClass mc = new MetaClass();
                mc.id = c;
                mc.codepoint = String.format("U+%04X", gc.codePoint());
                mc.name = gc.name();
                mc.script = gc.script();
                mc.fonts = gc.fonts();
                m.classes.add(mc);
            }
            return m;
        }
    }

    /** A font file of the metadata. */
    public static final class MetaFont {
        public String file;
        public String sha256;
    }

    /** A class of the metadata; {@code fonts} are indices into {@link Meta#fonts}. */
    public static final class MetaClass {
        public int id;
        public String codepoint;
        public String name;
        public String script;
        public int[] fonts;
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static void writeMeta(Path file, Meta meta) {
        AtomicFiles.write(file, out -> out.write(JSON.writeValueAsBytes(meta)));
    }

    static Meta readMeta(Path file) {
        try {
            return JSON.readValue(file.toFile(), Meta.class);
        } catch (IOException e) {
            throw new InvalidDataException(file + ": unreadable glyph metadata (" + e.getMessage() + "); delete the"
                    + " cache directory and retry", e);
        }
    }

    public static DatasetInfo info(Path cacheDir) {
        String m = missing();
        Params p = Params.defaults();
        ScriptSplit split = ScriptSplit.committed();
        return new DatasetInfo(NAME, "Omniglot-style glyphs: 28x28 renderings of characters from "
                + split.all().size() + " scripts in the pinned fonts (fonts-noto-core, fonts-dejavu-core) with random affine distortion, stroke-width"
                + " change and noise; one class per character, >= 1,000 classes", m == null,
                m == null ? "generated from the pinned fonts on first use (about a minute), cached under "
                        + cacheDir.resolve(NAME) : m, -1, -1, GlyphRenderer.SIDE * GlyphRenderer.SIDE, -1, -1,
                List.of("scripts background/validation/evaluation " + split.background().size() + "/"
                        + split.validation().size() + "/" + split.evaluation().size() + " (committed)",
                        "train/test " + p.trainPerClass() + "/" + (p.instances() - p.trainPerClass())
                                + " instances per class",
                        "class order (order_seed 1993, numpy-compatible, computed)"),
                "generated; font licences (SIL OFL for Noto, Bitstream Vera/DejaVu licence) apply to the glyph"
                        + " designs");
    }
}
