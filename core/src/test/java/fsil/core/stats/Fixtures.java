package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Reads the scipy fixtures written by core/src/test/python/stats_fixtures.py (null stands for NaN/infinity). */
final class Fixtures {
    private Fixtures() {
    }

    static JsonNode load(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fsil/core/stats/" + name)) {
            assertNotNull(in, "missing fixture " + name + ": run core/src/test/python/stats_fixtures.py");
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static double[] doubles(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = number(array.get(i));
        }
        return out;
    }

    static double[][] matrix(JsonNode rows) {
        double[][] out = new double[rows.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = doubles(rows.get(i));
        }
        return out;
    }

    static double number(JsonNode v) {
        return v == null || v.isNull() ? Double.NaN : v.asDouble();
    }

    /** |actual - expected| &lt;= rel * max(|expected|, floor); NaN expects NaN. */
    static void close(double expected, double actual, double rel, double floor, String what) {
        if (Double.isNaN(expected)) {
            assertEquals(expected, actual, what);
            return;
        }
        double tol = rel * Math.max(Math.abs(expected), floor);
        assertEquals(expected, actual, tol, what);
    }
}
