package fsil.eval.store;

import fsil.core.text.AsciiBuffer;
import fsil.eval.metrics.CalibrationBins;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnitsCsvTest {

    private static UnitRecord record(double fit, double predict, Map<String, Double> extra) {
        CalibrationBins bins = new CalibrationBins();
        bins.add(0.93, true);
        bins.add(0.41, false);
        return new UnitRecord("rbf, q=0", "ppca", "digits", "fewshot", "5-way 1-shot", 7, 1993, 42, UnitRecord.OK, "",
                2 / 3.0, 75, fit, predict, 1300, new double[]{0.5, 0.25}, new double[][]{{1, 0.5}, {0.75}},
                new int[]{5, 10}, new double[]{1.0}, bins, extra);
    }

    @Test
    void rowsReadBackExactlyExceptTimesWhichKeepTheirNanoseconds() {
        Map<String, Double> extra = new LinkedHashMap<>();
        extra.put("auto t;vb", 202.93508651945507);
        extra.put("tuned", 1.0);
        UnitRecord r = record(1.2345678912e-5, 3.25, extra);
        String line = UnitsCsv.line(r);
        assertEquals('\n', line.charAt(line.length() - 1));
        UnitRecord back = UnitsCsv.parseLine(line.substring(0, line.length() - 1));
        assertEquals(r.method(), back.method(), "quoted field with a comma");
        assertEquals(r.accuracy(), back.accuracy(), 0.0);
        assertEquals(1.2346e-5, back.fitSeconds(), 1e-18, "12,345.68 ns rounded to the nanosecond");
        assertEquals(3.25, back.predictSeconds(), 0.0);
        assertArrayEquals(r.accSeen(), back.accSeen(), 0.0);
        assertArrayEquals(r.aMatrix()[1], back.aMatrix()[1], 0.0);
        assertArrayEquals(r.classesSeen(), back.classesSeen());
        assertEquals(r.calibration().ece(), back.calibration().ece(), 0.0);
        assertEquals(202.93508651945507, back.extra().get("auto_t_vb"), 0.0, "unsafe key characters replaced");
    }

    @Test
    void secondsAreFixedPointNanosecondsWithFallbacks() {
        AsciiBuffer sb = new AsciiBuffer(4);
        UnitsCsv.seconds(sb, 0.0);
        assertEquals("0.000000000", sb.toString());
        UnitsCsv.seconds(sb.clear(), 12.000000001);
        assertEquals("12.000000001", sb.toString());
        UnitsCsv.seconds(sb.clear(), 0.000148818);
        assertEquals("0.000148818", sb.toString());
        UnitsCsv.seconds(sb.clear(), Double.NaN);
        assertEquals("NaN", sb.toString());
        UnitsCsv.seconds(sb.clear(), -1.5);
        assertEquals("-1.5", sb.toString());
    }

    @Test
    void crcIsTheZeroPaddedLowerCaseHexOfCrc32AndGuardsTheRow() {
        CRC32 c = new CRC32();
        c.update("abc".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(String.format("%08x", c.getValue()), UnitsCsv.crc("abc"));
        assertEquals(8, UnitsCsv.crc("").length());
        String line = UnitsCsv.line(record(0.5, 0.5, Map.of()));
        String torn = line.substring(0, line.length() - 1).replace("digits", "digitz");
        assertNull(UnitsCsv.parseLine(torn), "a changed row fails its CRC");
    }

    @Test
    void batchesReachTheFileWhenFullWhenDueAndOnHandOver(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        java.nio.file.Path file = tmp.resolve("units.csv");
        UnitRecord r = record(0.25, 0.5, Map.of());
        String prefix = UnitsCsv.prefix(r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting());
        try (UnitsCsv out = UnitsCsv.append(file, 3_600_000)) {
            UnitsCsv.Batch batch = out.batch(3);
            batch.add(prefix, r);
            batch.add(prefix, r);
            out.drain();
            assertEquals(0, UnitsCsv.read(file).rows().size(), "not full, not due: still in memory");
            batch.add(prefix, r);
            out.drain();
            assertEquals(3, UnitsCsv.read(file).rows().size(), "full: formatted and written");
            batch.add(prefix, r);
            batch.handOver();
            out.drain();
            assertEquals(4, UnitsCsv.read(file).rows().size(), "handed over");
            batch.add(prefix, r);
        }
        assertEquals(4, UnitsCsv.read(file).rows().size(), "a row not handed over is not written by close");
        try (UnitsCsv out = UnitsCsv.append(file, 0)) {
            out.batch(100).add(prefix, r);
            out.drain();
            assertEquals(5, UnitsCsv.read(file).rows().size(), "due at once when the flush interval has passed");
            out.batch(100).add(prefix, r);
        }
        assertEquals(6, UnitsCsv.read(file).rows().size(), "close writes what was handed over");
        UnitsCsv.Contents c = UnitsCsv.read(file);
        assertEquals(0, c.droppedLines());
        assertEquals(UnitsCsv.line(r), UnitsCsv.line(c.rows().get(4)), "a batched row reads back to the same row");
    }

    @Test
    void aFailingWriterIsReportedByTheNextHandOverAndByCloseWithoutBlockingAnyone(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws java.io.IOException {
        java.nio.file.Path file = tmp.resolve("units.csv");
        UnitRecord r = record(0.25, 0.5, Map.of());
        String prefix = UnitsCsv.prefix(r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting());
        // a record without a status cannot be encoded: the writer thread fails on it, as it would on a full disk
        UnitRecord broken = new UnitRecord("m", "m", "d", "fewshot", "s", 1, 1, 2, null, "", 0.5, 2, 0, 0, 0,
                new double[0], new double[0][], new int[0], new double[0], null, Map.of());
        UnitsCsv out = UnitsCsv.append(file, 3_600_000);
        UnitsCsv.Batch batch = out.batch(1);
        batch.add(prefix, r);
        batch.add(prefix, broken);
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> {
            for (int i = 0; i < 1000; i++) { // more hand-overs than the writer's queue holds: none may block
                batch.add(prefix, r);
            }
            out.drain();
        });
        assertTrue(e.getMessage().startsWith("writing units.csv failed"), e.getMessage());
        java.io.IOException atClose = assertThrows(java.io.IOException.class, out::close);
        assertTrue(atClose.getMessage().startsWith("writing units.csv failed"), atClose.getMessage());
        assertEquals(1, UnitsCsv.read(file).rows().size(), "the rows before the failure are written, none after");
        assertThrows(java.io.IOException.class, () -> batch.add(prefix, r), "no hand-over after close");
    }

    @Test
    void nonAsciiLabelsAndErrorsAreWrittenAsUtf8AndReadBack(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        UnitRecord ok = record(0.25, 0.5, Map.of());
        UnitRecord failed = new UnitRecord("réseau, σ=2", "ppca", "digits", "fewshot", "5-way 1-shot", 8, 1993, 43,
                UnitRecord.FAILED, "matrice singulière \"Σ\" 😀", Double.NaN, 0, 0, 0, 0, new double[0],
                new double[0][], new int[0], new double[0], null, Map.of());
        java.nio.file.Path file = tmp.resolve("units.csv");
        try (UnitsCsv out = UnitsCsv.append(file, 3_600_000)) {
            UnitsCsv.Batch batch = out.batch(8);
            for (UnitRecord r : new UnitRecord[]{ok, failed, ok}) {
                batch.add(UnitsCsv.prefix(r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting()), r);
            }
            batch.handOver();
        }
        UnitsCsv.Contents c = UnitsCsv.read(file);
        assertEquals(0, c.droppedLines());
        assertEquals(3, c.rows().size());
        UnitRecord back = c.rows().get(1);
        assertEquals(failed.method(), back.method());
        assertEquals(failed.error(), back.error());
        assertEquals(UnitsCsv.line(ok), UnitsCsv.line(c.rows().get(2)), "the row after a non-ASCII one is intact");
    }

    @Test
    void accuraciesAreWrittenAsDoubleToStringWhateverTheTableHolds() {
        // more distinct values than the table has slots, twice, so that hits, misses and evictions all occur
        for (int pass = 0; pass < 2; pass++) {
            for (int n = 1; n <= 40; n++) {
                for (int k = 0; k <= n; k++) {
                    double acc = k / (double) n;
                    UnitRecord r = new UnitRecord("m", "m", "d", "fewshot", "s", k, 1, 2, UnitRecord.OK, "", acc, n,
                            0, 0, 0, new double[0], new double[0][], new int[0], new double[0], null, Map.of());
                    assertEquals(acc, UnitsCsv.parseLine(chomp(UnitsCsv.line(r))).accuracy(), 0.0);
                    assertEquals(Double.toString(acc), UnitsCsv.split(UnitsCsv.line(r)).get(10));
                }
            }
        }
    }

    /**
     * The row format written out field by field with the JDK's own formatting (Long/Integer/Double.toString,
     * "%09d" nanoseconds, "%08x" CRC), independently of the byte encoder: both must agree byte for byte on any record,
     * so that the encoder's speed-ups cannot change a run directory's contents.
     */
    @Test
    void rowsAreByteForByteTheDocumentedFormat() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        String[] texts = {"", "ncm", "rbf, q=0", "say \"hi\"", "line\nbreak", "réseau σ 😀", "a;b=c d"};
        for (int i = 0; i < 2_000; i++) {
            CalibrationBins bins = null;
            if (rnd.nextInt(4) > 0) {
                bins = new CalibrationBins();
                for (int q = rnd.nextInt(80); q > 0; q--) {
                    bins.add(rnd.nextDouble(), rnd.nextBoolean());
                }
                bins = rnd.nextBoolean() ? bins.compact() : bins;
            }
            Map<String, Double> extra = new LinkedHashMap<>();
            for (int k = rnd.nextInt(3); k > 0; k--) {
                extra.put(texts[rnd.nextInt(texts.length)] + k, rnd.nextDouble() * 1e3);
            }
            double[][] a = new double[rnd.nextInt(3)][];
            for (int t = 0; t < a.length; t++) {
                a[t] = randomDoubles(rnd);
            }
            int[] classes = new int[rnd.nextInt(4)];
            for (int t = 0; t < classes.length; t++) {
                classes[t] = rnd.nextInt(1000);
            }
            double[] times = {rnd.nextDouble() * Math.pow(10, -rnd.nextInt(10)), rnd.nextInt(100) == 0 ? Double.NaN
                    : rnd.nextDouble() * 100};
            UnitRecord r = new UnitRecord(texts[rnd.nextInt(texts.length)], "ppca", texts[rnd.nextInt(texts.length)],
                    "fewshot", texts[rnd.nextInt(texts.length)], rnd.nextInt(1 << 20), rnd.nextLong(), rnd.nextLong(),
                    rnd.nextBoolean() ? UnitRecord.OK : UnitRecord.FAILED, texts[rnd.nextInt(texts.length)],
                    rnd.nextInt(76) / 75.0, rnd.nextInt(1000), times[0], times[1], rnd.nextLong() >>> 20,
                    randomDoubles(rnd), a, classes, randomDoubles(rnd), bins, extra);
            assertEquals(referenceLine(r), UnitsCsv.line(r));
        }
    }

    private static double[] randomDoubles(java.util.SplittableRandom rnd) {
        double[] v = new double[rnd.nextInt(4)];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextInt(3) == 0 ? rnd.nextInt(10) / 10.0 : Double.longBitsToDouble(rnd.nextLong() >>> 2);
        }
        return v;
    }

    private static String referenceLine(UnitRecord r) {
        StringBuilder f = new StringBuilder();
        for (String s : new String[]{r.method(), r.methodId(), r.dataset(), r.protocol(), r.setting()}) {
            f.append(UnitsCsv.quote(s)).append(',');
        }
        f.append(r.unit()).append(',').append(r.orderSeed()).append(',').append(r.trainSeed()).append(',');
        f.append(r.status()).append(',').append(UnitsCsv.quote(r.error().replace('\n', ' ').replace('\r', ' ')));
        f.append(',').append(Double.toString(r.accuracy())).append(',').append(r.evaluated()).append(',');
        for (double t : new double[]{r.fitSeconds(), r.predictSeconds()}) {
            if (t >= 0 && t < 9e9) {
                long nanos = Math.round(t * 1e9);
                f.append(nanos / 1_000_000_000L).append('.').append(String.format("%09d", nanos % 1_000_000_000L));
            } else {
                f.append(Double.toString(t));
            }
            f.append(',');
        }
        f.append(r.memoryBytes()).append(',').append(joined(r.accSeen())).append(',');
        java.util.StringJoiner a = new java.util.StringJoiner("/");
        for (double[] row : r.aMatrix()) {
            a.add(joined(row));
        }
        f.append(a).append(',');
        f.append(java.util.Arrays.stream(r.classesSeen()).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(";"))).append(',');
        f.append(joined(r.relativeAcc())).append(',');
        f.append(r.calibration() == null ? "" : r.calibration().encode()).append(',');
        java.util.StringJoiner x = new java.util.StringJoiner(";");
        r.extra().forEach((k, v) -> x.add(k.replaceAll("[;=,\"\\s]", "_") + "=" + v));
        f.append(x);
        CRC32 crc = new CRC32();
        crc.update(f.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return f + "," + String.format("%08x", crc.getValue()) + "\n";
    }

    private static String joined(double[] v) {
        return java.util.Arrays.stream(v).mapToObj(Double::toString).collect(java.util.stream.Collectors.joining(";"));
    }

    private static String chomp(String line) {
        return line.substring(0, line.length() - 1);
    }
}
