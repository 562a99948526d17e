package fsil.eval.store;

import com.google.common.util.concurrent.Uninterruptibles;
import fsil.api.FsilException;
import fsil.core.text.AsciiBuffer;
import fsil.eval.metrics.CalibrationBins;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32;

/**
 * {@code units.csv}: one row per completed unit. Each row ends with the CRC-32 of the rest of the row, so a row
 * torn by a crash (kill -9 in the middle of a write) is recognised and dropped on resume; rows are buffered and
 * written in whole lines. Numbers are written with {@link Double#toString}, which reads back exactly.
 */
public final class UnitsCsv implements AutoCloseable {
    /** The file name in a run directory. */
    public static final String FILE = "units.csv";

    static final String[] HEADER = {"method", "method_id", "dataset", "protocol", "setting", "unit", "order_seed",
            "train_seed", "status", "error", "accuracy", "evaluated", "fit_s", "predict_s", "memory_bytes",
            "acc_seen", "a_matrix", "classes_seen", "relative_acc", "calibration", "extra", "crc"};

    private final FileChannel channel;
    private final long flushNanos;
    /** Handed-over rows on their way to the writer thread, in hand-over order; bounded so a slow disk holds back. */
    private final BlockingQueue<Chunk> pending = new ArrayBlockingQueue<>(64);
    private final Thread writer;
    /** The first failure of the writer thread; rows handed over after it are dropped (the run is stopping). */
    private volatile Throwable failure;
    private volatile boolean closed;

    /** Rows of one hand-over, or (with {@code size < 0}) a signal: {@link #END} or a {@link #drain} barrier. */
    private record Chunk(String[] prefixes, UnitRecord[] rows, int size, CountDownLatch written) {
    }

    private static final Chunk END = new Chunk(null, null, -1, null);
    /** How long the writer thread sleeps when it finds no rows: rows reach the file this much later at most. */
    private static final long IDLE_PARK_NANOS = 5_000_000;

    private UnitsCsv(FileChannel channel, long flushNanos, String name) {
        this.channel = channel;
        this.flushNanos = flushNanos;
        this.writer = new Thread(this::writeHandedOver, "fsil-units-csv-" + name);
        writer.setDaemon(true);
    }

    /**
     * Opens for appending; writes the header to a new file. Rows go through {@link Batch}es, handed over at least
     * every {@code flushMillis} ms while rows arrive, and when their worker is done; one writer thread encodes and
     * writes them, so that a unit's thread does not wait for either (see {@link #writeHandedOver}).
     */
    public static UnitsCsv append(Path file, long flushMillis) throws IOException {
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        UnitsCsv u = new UnitsCsv(ch, flushMillis * 1_000_000L, String.valueOf(file.getFileName()));
        if (fresh) {
            byte[] header = (String.join(",", HEADER) + "\n").getBytes(StandardCharsets.UTF_8);
            try {
                writeFully(ch, header, header.length);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }
        u.writer.start();
        return u;
    }

    /**
     * The writer thread: encodes and writes each handed-over chunk of rows, in hand-over order, until {@link #END}.
     * Encoding (0.6-0.8 us per row) and the write (0.4 us) took about 1.1 us of a 5-way NCM episode's 45-50 us at
     * d = 64 when the unit's thread did them (runner-overhead); here a spare core does them, and with every core
     * running units it costs the same CPU time as before.
     *
     * <p>It looks for work every {@link #IDLE_PARK_NANOS} instead of being woken by each hand-over: a thread woken
     * from a unit's thread was run by Linux on that unit's CPU, ahead of the unit, so the unit waited for the whole
     * chunk to be encoded (80-330 us per hand-over of 256 rows, 0.3-1.3 us per unit, measured); polling brought the
     * hand-over down to 0.02-0.07 us per unit. {@link #drain} and {@link #close} wake it at once. After a failure it
     * keeps taking chunks, so that no worker blocks on a full queue, and drops them: the next hand-over reports it.
     */
    private void writeHandedOver() {
        RowEncoder encoder = new RowEncoder(64 * 320);
        while (true) {
            Chunk c = pending.poll();
            if (c == null) {
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                Thread.interrupted(); // only END stops this thread, which nobody else can reach
                continue;
            }
            if (c == END) {
                return;
            }
            try {
                if (c.size() > 0 && failure == null) {
                    writeRows(channel, encoder, c.prefixes(), c.rows(), c.size());
                }
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
            } finally {
                if (c.written() != null) {
                    c.written().countDown();
                }
            }
        }
    }

    /** Puts a chunk on the writer's queue; fails if the writer has failed or the file is closed. */
    private void handOver(Chunk c) throws IOException {
        checkWriter();
        if (closed) {
            throw new IOException("units.csv is closed: the row(s) of this hand-over were not written");
        }
        // no wake-up call: the writer polls (see writeHandedOver); the queue is full only if the disk is slower than
        // the units, and then the worker waits for room
        if (!pending.offer(c)) {
            try {
                pending.put(c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while handing rows to units.csv's writer");
            }
        }
    }

    private void checkWriter() throws IOException {
        Throwable f = failure;
        if (f != null) {
            throw f instanceof IOException io ? new IOException("writing units.csv failed: " + io.getMessage(), io)
                    : new IOException("writing units.csv failed: " + f, f);
        }
    }

    /**
     * Waits until every row handed over so far is written (in the operating system's cache, as after a write), and
     * reports a failure of the writer.
     */
    public void drain() throws IOException {
        CountDownLatch written = new CountDownLatch(1);
        handOver(new Chunk(null, null, -2, written));
        LockSupport.unpark(writer);
        Uninterruptibles.awaitUninterruptibly(written);
        checkWriter();
    }

    /**
     * A batch of rows for one worker thread, handed over to the writer thread when it is full or when
     * {@code flushMillis} have passed since the last hand-over, so a finished unit waits at most about that long, or
     * for the unit after it, and then the writer's polling interval (5 ms) before it is written. Encoding rows
     * together rather than one by one right after each unit also costs less (0.6 instead of 1.6 us per row in an
     * ablation on 5-way NCM episodes at d = 64, likely because a unit's own work pushes the encoding code and tables
     * out of the caches).
     */
    public final class Batch {
        private final int capacity;
        private String[] prefixes;
        private UnitRecord[] rows;
        private int size;
        private long lastHandOver = System.nanoTime();

        private Batch(int capacity) {
            this.capacity = capacity;
            prefixes = new String[capacity];
            rows = new UnitRecord[capacity];
        }

        /** Adds a row whose first five fields are {@code prefix} ({@link #prefix}); hands the batch over when due. */
        public void add(String prefix, UnitRecord r) throws IOException {
            prefixes[size] = prefix;
            rows[size++] = r;
            if (size == capacity || System.nanoTime() - lastHandOver >= flushNanos) {
                handOver();
            }
        }

        /** Hands the rows to the writer thread (which writes them soon after) and starts new arrays. */
        public void handOver() throws IOException {
            if (size > 0) {
                Chunk c = new Chunk(prefixes, rows, size, null);
                prefixes = new String[capacity];
                rows = new UnitRecord[capacity];
                size = 0;
                UnitsCsv.this.handOver(c);
            }
            lastHandOver = System.nanoTime();
        }
    }

    /**
     * Encodes rows one after the other into a byte buffer that is reused from batch to batch: the fields are
     * written into it as bytes (UTF-8), and the CRC is computed over the row's bytes in place. Writing bytes directly
     * instead of through a StringBuilder, a String and its bytes cost 0.6-0.8 instead of 0.9-1.1 us per row in a
     * run of 5-way NCM episodes at d = 64 (timed inside the unit loop), 0.5 instead of 0.8 us in a loop of rows.
     */
    private static final class RowEncoder {
        private final AsciiBuffer out;
        private final CRC32 crc = new CRC32();
        private String prefix;
        private byte[] prefixBytes;

        RowEncoder(int capacity) {
            out = new AsciiBuffer(capacity);
        }

        void clear() {
            out.clear();
        }

        void encode(String rowPrefix, UnitRecord r) {
            if (!rowPrefix.equals(prefix)) { // the same String object for all rows of a group
                prefix = rowPrefix;
                prefixBytes = rowPrefix.getBytes(StandardCharsets.UTF_8);
            }
            int start = out.length();
            out.append(prefixBytes);
            fields(r, out);
            crc.reset();
            crc.update(out.array(), start, out.length() - start);
            out.append(',').appendHex(crc.getValue(), 8).append('\n');
        }
    }

    /** Encodes rows 0 .. size - 1 with their prefixes and writes them in one go. */
    private static void writeRows(FileChannel ch, RowEncoder encoder, String[] prefixes, UnitRecord[] rows, int size)
            throws IOException {
        encoder.clear();
        for (int i = 0; i < size; i++) {
            encoder.encode(prefixes[i], rows[i]);
        }
        writeFully(ch, encoder.out.array(), encoder.out.length());
    }

    /**
     * Encodes records as the writer thread does, in chunks of 256, and appends them to {@code file} on the calling
     * thread: what the writer thread's work costs per row, for the runner-overhead benchmark. Records of one
     * (method, dataset, setting) in a row share their prefix, as the units of a run's group do.
     */
    public static void writeNow(Path file, List<UnitRecord> records) throws IOException {
        int chunk = 256;
        String[] prefixes = new String[chunk];
        UnitRecord[] rows = new UnitRecord[chunk];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            RowEncoder encoder = new RowEncoder(64 * 320);
            String prefix = null;
            UnitRecord last = null;
            for (int start = 0; start < records.size(); start += chunk) {
                int size = Math.min(chunk, records.size() - start);
                for (int i = 0; i < size; i++) {
                    UnitRecord r = records.get(start + i);
                    if (last == null || !r.method().equals(last.method()) || !r.methodId().equals(last.methodId())
                            || !r.dataset().equals(last.dataset()) || !r.protocol().equals(last.protocol())
                            || !r.setting().equals(last.setting())) {
                        prefix = prefix(r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting());
                    }
                    last = r;
                    prefixes[i] = prefix;
                    rows[i] = r;
                }
                writeRows(ch, encoder, prefixes, rows, size);
            }
        }
    }

    /** A new batch of at most {@code capacity} rows; hand it over when the worker is done. */
    public Batch batch(int capacity) {
        return new Batch(capacity);
    }

    /**
     * The first five fields of a row (method label, method id, dataset, protocol, setting), quoted where needed,
     * with the comma that follows them: the same for every unit of a (variant, dataset, setting).
     */
    public static String prefix(String method, String methodId, String dataset, String protocol, String setting) {
        return quote(method) + ',' + quote(methodId) + ',' + quote(dataset) + ',' + quote(protocol) + ','
                + quote(setting) + ',';
    }

    /** The row of a record, CRC and newline included. */
    static String line(UnitRecord r) {
        return new String(row(prefix(r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting()), r),
                StandardCharsets.UTF_8);
    }

    /** The UTF-8 bytes of a row: prefix, remaining fields, ',' CRC-32 of everything before it in hex, newline. */
    static byte[] row(String prefix, UnitRecord r) {
        RowEncoder e = new RowEncoder(prefix.length() + 320);
        e.encode(prefix, r);
        return e.out.toByteArray();
    }

    private static void writeFully(FileChannel ch, byte[] src, int count) throws IOException {
        if (count > 0) {
            ByteBuffer b = ByteBuffer.wrap(src, 0, count);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    /**
     * Writes what was handed over, stops the writer thread and closes the file (hand the batches over first); reports
     * a failure of the writer. Written rows are in the operating system's cache: they survive the process (kill -9),
     * and {@link #force} makes them survive the machine.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        // the writer's remaining work is finite: wait for it even when interrupted
        Uninterruptibles.putUninterruptibly(pending, END);
        LockSupport.unpark(writer);
        Uninterruptibles.joinUninterruptibly(writer);
        channel.close();
        checkWriter();
    }

    /** Waits until everything written to {@code file} is on the disk (fsync). */
    public static void force(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Result of reading a units file: the valid rows and the byte length they span. */
    public record Contents(List<UnitRecord> rows, long validBytes, int droppedLines) {
    }

    /** Reads every valid row; stops at the first torn or corrupt line (everything after it is dropped). */
    public static Contents read(Path file) throws IOException {
        List<UnitRecord> rows = new ArrayList<>();
        if (!Files.exists(file)) {
            return new Contents(rows, 0, 0);
        }
        byte[] bytes = Files.readAllBytes(file);
        int pos = 0;
        long valid = 0;
        int dropped = 0;
        boolean header = true;
        while (pos < bytes.length) {
            int nl = pos;
            while (nl < bytes.length && bytes[nl] != '\n') {
                nl++;
            }
            if (nl == bytes.length) {
                dropped++; // torn last line without newline
                break;
            }
            String line = new String(bytes, pos, nl - pos, StandardCharsets.UTF_8);
            if (header) {
                if (!line.startsWith("method,method_id,")) {
                    throw new FsilException(file + " is not an fsil units.csv file (unexpected header)");
                }
                header = false;
            } else {
                UnitRecord r = parseLine(line);
                if (r == null) {
                    dropped++;
                    break;
                }
                rows.add(r);
            }
            pos = nl + 1;
            valid = pos;
        }
        if (header && valid == 0 && bytes.length > 0) {
            dropped++;
        }
        for (int i = pos; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                dropped++;
            }
        }
        return new Contents(rows, valid, dropped);
    }

    /** Truncates the file to its valid prefix (after {@link #read}). */
    public static void truncate(Path file, long validBytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(validBytes);
        }
    }

    static String crc(String body) {
        return new AsciiBuffer(8).appendHex(crcValue(body), 8).toString();
    }

    private static long crcValue(String body) {
        CRC32 c = new CRC32();
        c.update(body.getBytes(StandardCharsets.UTF_8));
        return c.getValue();
    }

    /** The row's fields after the prefix, comma-separated, into {@code f}, in {@link #HEADER} order (no CRC). */
    private static void fields(UnitRecord r, AsciiBuffer f) {
        f.append(r.unit()).append(',');
        f.append(r.orderSeed()).append(',');
        f.append(r.trainSeed()).append(',');
        f.append(r.status()).append(',');
        f.append(quote(r.error() == null ? "" : r.error().replace('\n', ' ').replace('\r', ' '))).append(',');
        f.append(AccuracyText.of(r.accuracy())).append(',');
        f.append(r.evaluated()).append(',');
        seconds(f, r.fitSeconds());
        f.append(',');
        seconds(f, r.predictSeconds());
        f.append(',');
        f.append(r.memoryBytes()).append(',');
        join(f, r.accSeen()).append(',');
        for (int t = 0; t < r.aMatrix().length; t++) {
            if (t > 0) {
                f.append('/');
            }
            join(f, r.aMatrix()[t]);
        }
        f.append(',');
        for (int t = 0; t < r.classesSeen().length; t++) {
            if (t > 0) {
                f.append(';');
            }
            f.append(r.classesSeen()[t]);
        }
        f.append(',');
        join(f, r.relativeAcc()).append(',');
        if (r.calibration() != null) {
            r.calibration().encodeTo(f);
        }
        f.append(',');
        if (r.extra().isEmpty()) {
            return; // without an iterator object (Map.of()'s allocates one), the usual case of an episode
        }
        boolean first = true;
        for (Map.Entry<String, Double> en : r.extra().entrySet()) {
            if (!first) {
                f.append(';');
            }
            first = false;
            f.append(safeKey(en.getKey())).append('=').append(num(en.getValue()));
        }
    }

    /** A diagnostic name with the characters that would break the row replaced by '_'. */
    private static String safeKey(String k) {
        for (int i = 0; i < k.length(); i++) {
            if (unsafe(k.charAt(i))) {
                StringBuilder sb = new StringBuilder(k);
                for (int j = i; j < sb.length(); j++) {
                    if (unsafe(sb.charAt(j))) {
                        sb.setCharAt(j, '_');
                    }
                }
                return sb.toString();
            }
        }
        return k;
    }

    private static boolean unsafe(char c) {
        return c == ';' || c == '=' || c == ',' || c == '"' || Character.isWhitespace(c);
    }

    /**
     * A wall time in seconds with 9 decimals (nanoseconds, what it was measured in), formatted from the rounded
     * integer: JDK 17's Double.toString takes a slow big-integer path for most such values, which cost a measurable
     * share of a cheap unit (runner-overhead). Reads back within 0.5 ns; non-finite and negative values and those
     * beyond ~292 years fall back to Double.toString.
     */
    static void seconds(AsciiBuffer f, double v) {
        if (!(v >= 0 && v < 9e9)) {
            f.append(v);
            return;
        }
        long nanos = Math.round(v * 1e9);
        f.append(nanos / 1_000_000_000L).append('.').appendPadded(nanos % 1_000_000_000L, 9);
    }

    /**
     * Double.toString of accuracies, remembered: JDK 17's Double.toString takes about 0.2 us for a typical k/n
     * accuracy (a whole row takes about 0.5 us) and an episode protocol repeats the same few values. A small
     * direct-mapped table of immutable entries, safe to share between threads without locks (a lost update only
     * means one more Double.toString).
     */
    private static final class AccuracyText {
        private record Entry(long bits, byte[] text) {
        }

        private static final Entry[] TABLE = new Entry[256];

        /** The ASCII bytes of Double.toString(v); not to be modified. */
        static byte[] of(double v) {
            long bits = Double.doubleToRawLongBits(v);
            int slot = (int) (fsil.core.random.RandomStreams.mix(bits) & (TABLE.length - 1));
            Entry e = TABLE[slot];
            if (e != null && e.bits == bits) {
                return e.text;
            }
            byte[] text = Double.toString(v).getBytes(StandardCharsets.US_ASCII);
            TABLE[slot] = new Entry(bits, text);
            return text;
        }
    }

    private static String num(double v) {
        return Double.toString(v);
    }

    private static AsciiBuffer join(AsciiBuffer sb, double[] v) {
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(';');
            }
            sb.append(v[i]);
        }
        return sb;
    }

    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** Splits a CSV line honouring quotes. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
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
        out.add(cur.toString());
        return out;
    }

    /** Parses one data line; null if it is torn or its CRC does not match. */
    static UnitRecord parseLine(String line) {
        int lastComma = line.lastIndexOf(',');
        if (lastComma < 0) {
            return null;
        }
        String body = line.substring(0, lastComma);
        if (!crc(body).equals(line.substring(lastComma + 1))) {
            return null;
        }
        List<String> f = split(body);
        if (f.size() != HEADER.length - 1) {
            return null;
        }
        try {
            double[][] a;
            if (f.get(16).isEmpty()) {
                a = new double[0][];
            } else {
                String[] rows = f.get(16).split("/", -1);
                a = new double[rows.length][];
                for (int t = 0; t < rows.length; t++) {
                    a[t] = doubles(rows[t]);
                }
            }
            int[] cs = f.get(17).isEmpty() ? new int[0]
                    : java.util.Arrays.stream(f.get(17).split(";")).mapToInt(Integer::parseInt).toArray();
            Map<String, Double> extra = new LinkedHashMap<>();
            if (!f.get(20).isEmpty()) {
                for (String kv : f.get(20).split(";")) {
                    int eq = kv.indexOf('=');
                    extra.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
                }
            }
            return new UnitRecord(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4), Integer.parseInt(f.get(5)),
                    Long.parseLong(f.get(6)), Long.parseLong(f.get(7)), f.get(8), f.get(9),
                    Double.parseDouble(f.get(10)), Integer.parseInt(f.get(11)), Double.parseDouble(f.get(12)),
                    Double.parseDouble(f.get(13)), Long.parseLong(f.get(14)), doubles(f.get(15)), a, cs,
                    doubles(f.get(18)), f.get(19).isEmpty() ? null : CalibrationBins.parse(f.get(19)), extra);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static double[] doubles(String s) {
        if (s.isEmpty()) {
            return new double[0];
        }
        String[] p = s.split(";", -1);
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = Double.parseDouble(p[i]);
        }
        return out;
    }
}
