package fsil.core.calibration;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Against the numpy/scipy references of {@code core/src/test/python/calibration_fixtures.py} (the inputs are in the
 * fixture too, so both sides read the same doubles).
 */
class CalibrationFixturesTest {
    private static final String FIXTURE = "calibration_fixtures.tsv";

    /** One prediction set of the fixture with its reference values. */
    private static final class Set {
        final String name;
        final int n;
        final int classes;
        final double[] probs;
        final int[] labels;
        int rows;
        final Map<Integer, Double> ece = new LinkedHashMap<>();
        double nll = Double.NaN;
        double brier = Double.NaN;
        double beta = Double.NaN;
        double nllAtBeta = Double.NaN;
        boolean interior;

        Set(String name, int n, int classes) {
            this.name = name;
            this.n = n;
            this.classes = classes;
            probs = new double[n * classes];
            labels = new int[n];
        }
    }

    private static List<Set> read() throws IOException {
        List<Set> sets = new ArrayList<>();
        Map<String, Set> byName = new LinkedHashMap<>();
        try (InputStream in = CalibrationFixturesTest.class.getResourceAsStream(FIXTURE)) {
            assertNotNull(in, FIXTURE + " is missing: run core/src/test/python/calibration_fixtures.py");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            Set current = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                switch (f[0]) {
                    case "set" -> {
                        current = new Set(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]));
                        sets.add(current);
                        byName.put(current.name, current);
                    }
                    case "row" -> {
                        assertEquals(current.classes + 2, f.length, line);
                        current.labels[current.rows] = Integer.parseInt(f[1]);
                        for (int k = 0; k < current.classes; k++) {
                            current.probs[current.rows * current.classes + k] = Double.parseDouble(f[2 + k]);
                        }
                        current.rows++;
                    }
                    case "ece" -> byName.get(f[1]).ece.put(Integer.parseInt(f[2]), Double.parseDouble(f[3]));
                    case "nll" -> byName.get(f[1]).nll = Double.parseDouble(f[2]);
                    case "brier" -> byName.get(f[1]).brier = Double.parseDouble(f[2]);
                    case "temperature" -> {
                        Set s = byName.get(f[1]);
                        s.beta = Double.parseDouble(f[2]);
                        s.nllAtBeta = Double.parseDouble(f[3]);
                        s.interior = f[4].equals("1");
                    }
                    default -> throw new IllegalStateException("unknown fixture record: " + line);
                }
            }
        }
        for (Set s : sets) {
            assertEquals(s.n, s.rows, s.name);
        }
        assertFalse(sets.isEmpty());
        return sets;
    }

    @Test
    void adaptiveEceMatchesNumpy() throws IOException {
        int checked = 0;
        for (Set s : read()) {
            assertTrue(s.ece.containsKey(15), s.name);
            for (Map.Entry<Integer, Double> e : s.ece.entrySet()) {
                double ece = AdaptiveEce.ece(s.probs, s.labels, s.classes, e.getKey());
                assertEquals(e.getValue(), ece, 1e-12, s.name + " B=" + e.getKey());
                checked++;
            }
        }
        assertTrue(checked >= 12);
    }

    @Test
    void scoringRulesMatchNumpy() throws IOException {
        for (Set s : read()) {
            assertEquals(s.nll, ScoringRules.nllMean(s.probs, s.labels, s.classes), 1e-12, s.name);
            assertEquals(s.brier, ScoringRules.brierMean(s.probs, s.labels, s.classes), 1e-12, s.name);
        }
    }

    /** scipy's bounded Brent search polished by Newton: the golden section lands within its 5e-8 in log beta. */
    @Test
    void temperatureMatchesScipy() throws IOException {
        for (Set s : read()) {
            TemperatureFit fit = TemperatureScaling.fit(s.probs, s.labels, s.classes);
            assertTrue(s.interior, s.name);
            assertFalse(fit.atBound(), s.name);
            assertEquals(0, Math.log(fit.inverseTemperature() / s.beta), 1e-7, s.name);
            assertEquals(s.nllAtBeta, fit.nllAfter(), 1e-12, s.name);
            assertEquals(s.nll, fit.nllBefore(), 1e-12, s.name);
        }
    }
}
