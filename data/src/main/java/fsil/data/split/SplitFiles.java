package fsil.data.split;

import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.data.SplitSet;
import fsil.data.io.InputFiles;
import fsil.data.io.TextLines;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * Reads the committed split files: the classpath resources under {@code fsil/splits/<dataset>/} and a user
 * feature directory's {@code splits/} folder.
 * <p>
 * Formats (UTF-8 text; {@code #} starts a comment; blank lines are ignored):
 * <ul>
 *   <li>{@code base.txt}, {@code validation.txt}, {@code novel.txt}: class ids, whitespace separated.</li>
 *   <li>{@code order_<seed>.txt}: a class order (a permutation of the class ids).</li>
 *   <li>{@code test_indices.txt}: indices of the samples that form the test set.</li>
 *   <li>{@code fscil.txt}: a line {@code base <class ids>}, then one line {@code session <train sample indices>}
 *       per incremental session.</li>
 * </ul>
 */
public final class SplitFiles {
    private static final String ROOT = "fsil/splits/";

    private SplitFiles() {
    }

    /** Whether the resource {@code fsil/splits/<dataset>/<file>} exists. */
    public static boolean hasResource(String dataset, String file) {
        return SplitFiles.class.getClassLoader().getResource(ROOT + dataset + "/" + file) != null;
    }

    /** Lines of a committed split resource, comments and blank lines removed. */
    public static List<String> resourceLines(String dataset, String file) {
        String path = ROOT + dataset + "/" + file;
        InputStream in = SplitFiles.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new FsilException("missing committed split file " + path + " (the build is incomplete)");
        }
        try (in) {
            return lines(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": " + e.getMessage(), e);
        }
    }

    /** Lines of a split file on disk, comments and blank lines removed. */
    public static List<String> fileLines(Path file) {
        List<String> out = new ArrayList<>();
        for (String line : TextLines.readAll(file)) {
            addContent(out, line);
        }
        return out;
    }

    /** Adds a line without its comment, stripped, unless nothing is left. */
    private static void addContent(List<String> out, String line) {
        int hash = line.indexOf('#');
        String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
        if (!content.isEmpty()) {
            out.add(content);
        }
    }

    private static List<String> lines(BufferedReader r) throws IOException {
        List<String> out = new ArrayList<>();
        String line;
        while ((line = r.readLine()) != null) {
            addContent(out, line);
        }
        return out;
    }

    /** All whitespace-separated integers of the lines. */
    public static int[] ints(List<String> lines, String source) {
        return lines.stream().flatMap(l -> Arrays.stream(l.split("\\s+"))).mapToInt(s -> parse(s, source))
                .toArray();
    }

    private static int parse(String s, String source) {
        try {
            int v = Integer.parseInt(s);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new InvalidDataException(source + ": '" + InputFiles.oneLine(s, 40)
                    + "' is not a non-negative integer index");
        }
    }

    /** Integers of a committed resource. */
    public static int[] resourceInts(String dataset, String file) {
        return ints(resourceLines(dataset, file), ROOT + dataset + "/" + file);
    }

    /** Base/validation/novel (and fscil.txt if present) of a committed dataset. */
    public static SplitSet committedSplits(String dataset) {
        int[] base = resourceInts(dataset, "base.txt");
        int[] validation = hasResource(dataset, "validation.txt") ? resourceInts(dataset, "validation.txt")
                : new int[0];
        int[] novel = resourceInts(dataset, "novel.txt");
        Optional<SplitSet.FscilSplit> fscil = hasResource(dataset, "fscil.txt")
                ? Optional.of(parseFscil(resourceLines(dataset, "fscil.txt"), ROOT + dataset + "/fscil.txt"))
                : Optional.empty();
        return new SplitSet(base, validation, novel, fscil);
    }

    /** Parses the {@code fscil.txt} format. */
    public static SplitSet.FscilSplit parseFscil(List<String> lines, String source) {
        return parseFscil(lines, source, s -> parse(s, source));
    }

    /**
     * Parses the {@code fscil.txt} format, translating each token of the {@code base} line with {@code classId}
     * (e.g. from a user's original labels to class ids); session lines hold sample indices.
     */
    public static SplitSet.FscilSplit parseFscil(List<String> lines, String source, ToIntFunction<String> classId) {
        int[] base = null;
        List<int[]> sessions = new ArrayList<>();
        for (String line : lines) {
            String[] parts = line.split("\\s+", 2);
            switch (parts[0]) {
                case "base" -> base = parts.length < 2 ? new int[0]
                        : Arrays.stream(parts[1].split("\\s+")).mapToInt(classId).toArray();
                case "session" -> sessions.add(parts.length < 2 ? new int[0] : ints(List.of(parts[1]), source));
                default -> throw new InvalidDataException(source + ": line '" + InputFiles.oneLine(line, 60)
                        + "' must start with 'base' or 'session'");
            }
        }
        if (base == null) {
            throw new InvalidDataException(source + ": no 'base' line");
        }
        return new SplitSet.FscilSplit(base, sessions);
    }

    /** Renders the fscil.txt format (with a comment header). */
    public static String formatFscil(String comment, SplitSet.FscilSplit split) {
        StringBuilder sb = new StringBuilder();
        for (String c : comment.split("\n")) {
            sb.append("# ").append(c).append('\n');
        }
        sb.append("base");
        for (int c : split.baseClasses()) {
            sb.append(' ').append(c);
        }
        sb.append('\n');
        for (int[] s : split.sessionSamples()) {
            sb.append("session");
            for (int i : s) {
                sb.append(' ').append(i);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Renders ids one line, with a comment header. */
    public static String formatInts(String comment, int[] values, int perLine) {
        StringBuilder sb = new StringBuilder();
        for (String c : comment.split("\n")) {
            sb.append("# ").append(c).append('\n');
        }
        for (int i = 0; i < values.length; i++) {
            sb.append(values[i]).append((i + 1) % perLine == 0 || i == values.length - 1 ? '\n' : ' ');
        }
        return sb.toString();
    }
}
