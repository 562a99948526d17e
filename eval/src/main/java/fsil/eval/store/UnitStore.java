package fsil.eval.store;

import fsil.api.FsilException;
import fsil.data.io.AtomicFiles;
import fsil.eval.metrics.Value;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * {@code units.csv}: one row per completed unit, appended as the unit completes. Each row ends with the CRC-32 of
 * the rest of the row, so a row torn by a crash or edited by hand is recognised on its own; every row is checked
 * independently (an invalid row never hides the rows after it). A unit's key appears once. Rows reach the disk
 * (fsync) at most a second after they are written and when the store closes; a crash of the process loses nothing
 * that was written, a crash of the machine at most the last second's units, which a resume recomputes. Readable
 * with {@code pandas.read_csv}; the {@code metrics} column is a JSON object.
 */
public final class UnitStore implements AutoCloseable {
    /** The file name in a run directory. */
    public static final String FILE = "units.csv";
    static final String[] HEADER = {"method", "method_id", "dataset", "protocol", "setting", "unit", "first_task",
            "tasks", "order_seed", "train_seed", "status", "error", "seconds", "metrics", "crc"};
    private static final long FORCE_NANOS = 1_000_000_000L;

    private final Path file;
    private final FileChannel channel;
    private long lastForce = System.nanoTime();

    private UnitStore(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** Opens for appending; writes the header to a new or empty file. */
    public static UnitStore append(Path file) {
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            boolean torn = !fresh && !endsWithNewline(file);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            UnitStore s = new UnitStore(file, ch);
            if (fresh) {
                s.write(String.join(",", HEADER) + "\n");
            } else if (torn) {
                s.write("\n"); // a torn last line stays a line of its own: the next row is never glued to it
            }
            return s;
        } catch (IOException e) {
            throw failure("cannot open", file, e);
        }
    }

    private static boolean endsWithNewline(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer last = ByteBuffer.allocate(1);
            return ch.size() == 0 || ch.read(last, ch.size() - 1) == 1 && last.get(0) == '\n';
        }
    }

    /** Appends a row (safe from several threads). */
    public synchronized void add(UnitRecord r) {
        write(encode(r) + "\n");
        if (System.nanoTime() - lastForce > FORCE_NANOS) {
            force();
        }
    }

    private void write(String text) {
        ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        try {
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            throw failure("cannot write to", file, e);
        }
    }

    /** fsync: what was written survives the machine. */
    public synchronized void force() {
        try {
            channel.force(false);
            lastForce = System.nanoTime();
        } catch (IOException e) {
            throw failure("cannot flush", file, e);
        }
    }

    @Override
    public synchronized void close() {
        try (channel) {
            force();
        } catch (IOException e) {
            throw failure("cannot close", file, e);
        }
    }

    static FsilException failure(String what, Path file, IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new FsilException(what + " " + file + ": " + why, e);
    }

    // --- the row format ----------------------------------------------------------------------------------------

    /** A record as its row of units.csv, without the line break (engines send records between JVMs this way). */
    public static String encode(UnitRecord r) {
        String metrics = ValueJson.text(r.metrics());
        String body = String.join(",", text(r.method()), text(r.methodId()), text(r.dataset()), text(r.protocol()),
                text(r.setting()), Integer.toString(r.unit()), Integer.toString(r.firstTask()),
                Integer.toString(r.tasks()), Long.toString(r.orderSeed()), Long.toString(r.trainSeed()),
                text(r.status()), text(r.error()), Double.toString(r.seconds()),
                quoted(metrics)); // compact JSON has no line breaks
        return body + "," + crc(body);
    }

    /**
     * A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180, as pandas reads it), so every
     * text (a dataset path with a line break) reads back as it was; fields without these characters are written as
     * they always were.
     */
    static String text(String s) {
        return quoted(s);
    }

    /** A CSV field: quoted when it holds a comma, a quote or a line break. */
    private static String quoted(String t) {
        boolean plain = true;
        for (int i = 0; i < t.length() && plain; i++) {
            char c = t.charAt(i);
            plain = c != ',' && c != '"' && c != '\n' && c != '\r';
        }
        return plain ? t : '"' + t.replace("\"", "\"\"") + '"';
    }

    static String crc(String body) {
        CRC32 c = new CRC32();
        c.update(body.getBytes(StandardCharsets.UTF_8));
        return String.format(Locale.ROOT, "%08x", c.getValue());
    }

    /** A row of units.csv that cannot be used, with its line number (1 = the header) and why. */
    public record Invalid(long line, String reason) {
        @Override
        public String toString() {
            return "line " + line + ": " + reason;
        }
    }

    /** What a units.csv holds: its valid rows in file order and the invalid ones. */
    public record Contents(List<UnitRecord> rows, List<Invalid> invalid) {
        /** One line per invalid row (at most {@code max}, then a count). */
        public String describeInvalid(int max) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(max, invalid.size()); i++) {
                sb.append(i == 0 ? "" : "; ").append(invalid.get(i));
            }
            if (invalid.size() > max) {
                sb.append("; and ").append(invalid.size() - max).append(" more");
            }
            return sb.toString();
        }
    }

    /**
     * Row text kept decoded in memory by {@link #read}: rows beyond it are decoded from the file again on each pass,
     * so what a long run's summaries hold does not grow with its rows (short runs never read the file twice).
     */
    static final long CACHED_BYTES = 1L << 20;

    /**
     * Reads and checks every row; a missing file is an empty store. The rows are a list of the file's valid rows: the
     * first {@link #CACHED_BYTES} of them held, the others read again (and checked again) whenever they are got.
     */
    public static Contents read(Path file) {
        return read(file, CACHED_BYTES);
    }

    /** As {@link #read(Path)}, holding the first {@code cachedBytes} of row text decoded (0: none). */
    public static Contents read(Path file, long cachedBytes) {
        List<Invalid> invalid = new ArrayList<>();
        if (!Files.exists(file)) {
            return new Contents(new ArrayList<>(), invalid);
        }
        if (!Files.isRegularFile(file)) {
            throw new FsilException(file + " is not a file: a run directory's " + FILE + " holds its results");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            Lines lines = Lines.of(ch);
            if (lines.size == 0) {
                return new Contents(new ArrayList<>(), invalid); // created, nothing written yet
            }
            StoredRows rows = new StoredRows(file);
            int n = lines.count();
            boolean endsWithNewline = lines.endsWithNewline();
            int last = endsWithNewline ? n - 1 : n;
            String header = String.join(",", HEADER);
            String first = lines.text(ch, 0, 0);
            if (!first.equals(header) || last == 1 && !endsWithNewline) {
                String torn = tornHeader(first, header, last == 1 && !endsWithNewline);
                if (torn == null) {
                    throw new FsilException(file + " is not a units.csv of this fsil version (its header is '"
                            + abbreviate(first) + "')");
                }
                invalid.add(new Invalid(1, torn));
            }
            // lines up to `complete` end with a line break; a last line without one was cut off
            int complete = endsWithNewline ? last : last - 1;
            Map<UnitRecord.Key, Long> seen = new HashMap<>();
            long cached = 0;
            for (int i = 1; i < last; i++) {
                long lineNo = i + 1;
                if (i >= complete) {
                    invalid.add(new Invalid(lineNo, "incomplete row (cut off by a crash)"));
                    continue;
                }
                String line = lines.text(ch, i, i);
                int end = i;
                // a field with a line break spans lines: join them while a quote is open, kept only if the CRC
                // holds (so a stray quote never hides the rows after it)
                if (openQuote(line)) {
                    for (int j = i + 1; j < complete && j - i <= MAX_LINES_PER_ROW; j++) {
                        String joined = lines.text(ch, i, j);
                        if (!openQuote(joined)) {
                            if (validRow(joined)) {
                                line = joined;
                                end = j;
                            }
                            break;
                        }
                    }
                }
                try {
                    UnitRecord r = decode(line);
                    Long firstLine = seen.putIfAbsent(r.key(), lineNo);
                    if (firstLine != null) {
                        invalid.add(new Invalid(lineNo, "a second row for " + r.key() + " (first on line "
                                + firstLine + ")"));
                    } else {
                        long from = lines.start(i);
                        long to = lines.end(end);
                        cached += to - from;
                        rows.add(cached <= cachedBytes ? r : null, r.key(), from, to);
                    }
                    i = end;
                } catch (IllegalArgumentException e) {
                    invalid.add(new Invalid(lineNo, e.getMessage()));
                }
            }
            return new Contents(rows, invalid);
        } catch (IOException e) {
            throw failure("cannot read", file, e);
        }
    }

    /** Where the lines of a file start: one long per line, the file itself is not held. */
    private record Lines(long[] starts, int count, long size, boolean endsWithNewline) {
        static Lines of(FileChannel ch) throws IOException {
            long size = ch.size();
            long[] starts = new long[16];
            int n = 1; // starts[0] = 0; a file of k line breaks has k + 1 lines, the last maybe empty
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            long pos = 0;
            byte lastByte = 0;
            while (pos < size) {
                buf.clear();
                int read = ch.read(buf, pos);
                if (read <= 0) {
                    break;
                }
                for (int k = 0; k < read; k++) {
                    if (buf.get(k) == '\n') {
                        if (n == starts.length) {
                            starts = java.util.Arrays.copyOf(starts, 2 * n);
                        }
                        starts[n++] = pos + k + 1;
                    }
                }
                lastByte = buf.get(read - 1);
                pos += read;
            }
            return new Lines(starts, n, pos, pos > 0 && lastByte == '\n');
        }

        long start(int line) {
            return starts[line];
        }

        /** The end of a line, its line break left out. */
        long end(int line) {
            return line + 1 < count ? starts[line + 1] - 1 : size;
        }

        /** Lines {@code from} to {@code to} joined by their line breaks. */
        String text(FileChannel ch, int from, int to) throws IOException {
            return UnitStore.text(ch, start(from), end(to));
        }
    }

    /** The bytes [from, to) of a file as UTF-8 text, malformed input replaced. */
    static String text(FileChannel ch, long from, long to) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(to - from));
        while (b.hasRemaining()) {
            if (ch.read(b, from + b.position()) < 0) {
                throw new IOException("the file ended before byte " + to + " (it was cut since it was read)");
            }
        }
        b.flip();
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(b).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException(e); // REPLACE never throws
        }
    }

    /**
     * The valid rows of a units.csv: those within the cache held, the others decoded from their bytes in the file
     * whenever they are got (a row that changed since is refused, never taken for another).
     */
    private static final class StoredRows extends java.util.AbstractList<UnitRecord>
            implements java.util.RandomAccess {
        private final Path file;
        private final List<UnitRecord> held = new ArrayList<>();
        private final List<UnitRecord.Key> keys = new ArrayList<>();
        private long[] spans = new long[32];

        StoredRows(Path file) {
            this.file = file;
        }

        void add(UnitRecord r, UnitRecord.Key key, long from, long to) {
            int i = keys.size();
            if (2 * i + 2 > spans.length) {
                spans = java.util.Arrays.copyOf(spans, 2 * spans.length);
            }
            spans[2 * i] = from;
            spans[2 * i + 1] = to;
            held.add(r);
            keys.add(r == null ? key : null); // a held row needs no key to be checked against
        }

        @Override
        public UnitRecord get(int i) {
            UnitRecord r = held.get(i);
            if (r != null) {
                return r;
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                r = decode(text(ch, spans[2 * i], spans[2 * i + 1]));
            } catch (IOException | IllegalArgumentException e) {
                throw new FsilException(file + " changed while it was read (" + e.getMessage() + "); read it again",
                        e);
            }
            if (!r.key().equals(keys.get(i))) {
                throw new FsilException(file + " changed while it was read (another row where " + keys.get(i)
                        + " was); read it again");
            }
            return r;
        }

        @Override
        public int size() {
            return held.size();
        }
    }

    /** Physical lines one row may span (a text with line breaks); more are not looked for. */
    private static final int MAX_LINES_PER_ROW = 64;

    /**
     * Why the first line is a header cut off by a crash (nothing but a beginning of the header, or the zeros a
     * machine crash may leave in a file's last block), or null when it is another file's header.
     */
    private static String tornHeader(String first, String header, boolean cutOff) {
        if (!first.isEmpty() && first.chars().allMatch(c -> c == 0)) {
            return "zero bytes instead of the header (a machine crash); the rows it held, if any, are lost";
        }
        if (cutOff && header.startsWith(first)) {
            return "the header is cut off (a crash before the first row was written)";
        }
        return null;
    }

    /** Whether a CSV text ends inside a quoted field (an odd number of quotes). */
    private static boolean openQuote(CharSequence s) {
        int quotes = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '"') {
                quotes++;
            }
        }
        return quotes % 2 == 1;
    }

    private static boolean validRow(String line) {
        try {
            decode(line);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A row of units.csv back as its record.
     *
     * @throws IllegalArgumentException when the row is torn, changed (checksum) or malformed
     */
    public static UnitRecord decode(String line) {
        int comma = line.lastIndexOf(',');
        if (comma < 0) {
            throw new IllegalArgumentException("not a row");
        }
        String body = line.substring(0, comma);
        if (!crc(body).equals(line.substring(comma + 1))) {
            throw new IllegalArgumentException("checksum mismatch (the row was changed or torn)");
        }
        List<String> f = fields(body);
        if (f.size() != HEADER.length - 1) {
            throw new IllegalArgumentException(f.size() + " fields instead of " + (HEADER.length - 1));
        }
        Value metrics;
        try {
            metrics = ValueJson.parse(f.get(13));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("metrics: " + e.getMessage());
        }
        if (!(metrics instanceof Value.Obj o)) {
            throw new IllegalArgumentException("metrics are not a JSON object");
        }
        try {
            return new UnitRecord(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), Integer.parseInt(f.get(5)),
                    Integer.parseInt(f.get(6)), Integer.parseInt(f.get(7)), Long.parseLong(f.get(8)),
                    Long.parseLong(f.get(9)), f.get(10), f.get(11), Double.parseDouble(f.get(12)), o);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a number field is not a number (" + e.getMessage() + ")");
        }
    }

    /** The fields of a CSV row (RFC 4180 quoting; a quoted field may hold line breaks), as fsil writes them. */
    public static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quote");
        }
        out.add(cur.toString());
        return out;
    }

    /** Replaces the file by the header and these rows, atomically (a resume drops invalid rows this way). */
    public static void rewrite(Path file, List<UnitRecord> rows) {
        StringBuilder sb = new StringBuilder(String.join(",", HEADER)).append('\n');
        for (UnitRecord r : rows) {
            sb.append(encode(r)).append('\n');
        }
        AtomicFiles.writeString(file, sb.toString());
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
