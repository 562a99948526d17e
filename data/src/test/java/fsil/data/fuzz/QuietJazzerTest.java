package fsil.data.fuzz;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QuietJazzerTest {
    /** Jazzer's two kinds of instrumentation line go, written as Jazzer writes them; every other line stays. */
    @Test
    void dropsOnlyJazzersInstrumentationLines() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(new QuietJazzer.Filter(new PrintStream(out, true, StandardCharsets.UTF_8)),
                true, StandardCharsets.UTF_8);
        err.print("INFO: ");
        err.println("Instrumented fsil.data.io.Npy (took 12 ms, size +21%)");
        err.print("INFO: ");
        err.println("Instrumented fsil.data.sets.glyphs.GlyphRenderer$Distortion with custom hooks only (took 6 ms, size +0%)");
        err.println("INFO: Loaded 3 hooks from com.code_intelligence.jazzer.sanitizers.SqlInjection");
        err.println("INFO: Instrumented fsil.data.io.Npy was not (something else)");
        err.println("WARN: Failed to instrument fsil/data/X:");
        err.print("\n== Java Exception: ");
        err.println("java.lang.IllegalStateException: boom");
        err.print("[ERROR] a partial line");
        err.flush();
        assertEquals("INFO: Instrumented fsil.data.io.Npy was not (something else)\nWARN: Failed to instrument "
                + "fsil/data/X:\n\n== Java Exception: java.lang.IllegalStateException: boom\n[ERROR] a partial line",
                out.toString(StandardCharsets.UTF_8));
    }
}
