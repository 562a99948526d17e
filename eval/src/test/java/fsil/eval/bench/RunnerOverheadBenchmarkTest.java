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
        assertTrue(Double.parseDouble(m.group(1)) > 0, text);
        assertTrue(text.contains("mean accuracy"), text);
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
