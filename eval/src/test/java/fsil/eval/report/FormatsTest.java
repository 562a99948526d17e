package fsil.eval.report;

import fsil.eval.metrics.Metric;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each metric in its unit, as the report and the terminal show it; headers name the unit once. */
class FormatsTest {

    @Test
    void accuraciesAreInPercentWithTheirIntervalFromTwoTasksOn() {
        assertEquals("63.72 ± 2.99 %", Formats.format("episode_acc", 0.63716, 0.02989, 24));
        assertEquals("63.72 %", Formats.format("episode_acc", 0.63716, 0.02989, 1), "one task: no interval");
        assertEquals("63.72 %", Formats.format("final_acc", 0.63716, Double.NaN, 5), "no interval known");
        assertEquals("-34.99 ± 5.49 %", Formats.format("bwt", -0.3499, 0.0549, 2));
        assertEquals("", Formats.format("episode_acc", Double.NaN, 0.1, 3), "a metric that did not apply");
    }

    @Test
    void calibrationMetricsKeepTheirScaleAndTheTemperatureScaledOnesAlike() {
        assertEquals("0.3622", Formats.format("ece", 0.36215, 0.01, 24), "ECE: no interval");
        assertEquals("0.3622", Formats.format("ece" + Metric.TEMPERATURE_SCALED, 0.36215, 0.01, 24));
        assertEquals("1.4655 ± 0.0156", Formats.format("nll", 1.46549, 0.01561, 24));
        assertEquals("ECE (0-1)", Formats.header("ece", "ECE"));
        assertEquals("ECE (T-scaled) (0-1)", Formats.header("ece" + Metric.TEMPERATURE_SCALED,
                "ECE (T-scaled)"));
        assertEquals("NLL (nats)", Formats.header("nll", "NLL"));
        assertEquals("Brier (0-2)", Formats.header("brier", "Brier"));
        assertEquals("final acc (%)", Formats.header("final_acc", "final acc"));
        assertEquals("memory", Formats.header("memory_bytes", "memory"));
    }

    @Test
    void timesCountsAndBytesCarryAReadableUnit() {
        assertEquals("15.9 µs", Formats.format("fit_s", 15.9e-6, 0, 24));
        assertEquals("12.30 ms", Formats.seconds(0.0123));
        assertEquals("7.45 s", Formats.seconds(7.45));
        assertEquals("3", Formats.format("failed_units", 3, 0, 14));
        assertEquals("999 B", Formats.bytes(999));
        assertEquals("1.3 KB", Formats.bytes(1340));
        assertEquals("46.9 MB", Formats.format("memory_bytes", 46.9e6, 0, 5));
        assertEquals("0.1235", Formats.format("some_ratio", 0.123456, 0.01, 3), "four significant digits otherwise");
    }
}
