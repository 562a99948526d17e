package fsil.eval.bench;

import fsil.api.FsilException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunnerOverheadBenchmarkTest {

    @Test
    void printsThePerUnitLineThatForksAreReadFrom() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new RunnerOverheadBenchmark().run(Map.of("episodes", "30", "repeats", "1", "dim", "8"),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        Matcher m = RunnerOverheadBenchmark.PER_UNIT.matcher(text);
        assertTrue(m.find(), text);
        // 30 episodes are too few for a meaningful ratio (it can even be negative when the 1-episode run
        // happens to be slower): only its form is checked, and that a negative ratio is still read
        assertTrue(Double.isFinite(Double.parseDouble(m.group(1))), text);
        assertTrue(RunnerOverheadBenchmark.PER_UNIT.matcher(
                "  per unit: runner/direct = -1.086 wall, -140.18 us/unit").find());
        assertTrue(!text.contains("Infinity") && !text.contains("NaN"), text);
        assertTrue(text.contains("mean accuracy"), text);
        assertTrue(RunnerOverheadBenchmark.BUSY.matcher(text).find(), text);
        assertTrue(text.contains("whole passes: runner/direct = ") && text.contains("(interleaved, median of 1;"), text);
    }

    @Test
    void rejectsUnknownOptionsAndBadCounts() {
        RunnerOverheadBenchmark b = new RunnerOverheadBenchmark();
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThrows(FsilException.class, () -> b.run(Map.of("episode", "10"), out));
        assertThrows(FsilException.class, () -> b.run(Map.of("forks", "0"), out));
        assertThrows(FsilException.class, () -> b.run(Map.of("episodes", "1"), out));
    }
}
