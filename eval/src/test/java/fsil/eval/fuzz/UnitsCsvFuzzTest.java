package fsil.eval.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.eval.store.UnitStore;

import java.nio.file.Path;

/**
 * A store ({@code units.csv}, as {@code fsil report} and {@code --resume} read it) from any bytes: its valid rows
 * with every other row named by a one-line reason, or a one-line error.
 */
class UnitsCsvFuzzTest {
    private static final Path DIR = RunLayerOracle.workDir("units");

    @FuzzTest(maxDuration = "6s")
    void unitsCsv(byte[] input) {
        Path file = RunLayerOracle.write(DIR, "units.csv", input);
        RunLayerOracle.oneLine(() -> {
            for (UnitStore.Invalid i : UnitStore.read(file).invalid()) {
                if (i.toString().contains("\n") || i.toString().contains("\r")) {
                    throw new AssertionError("an invalid row's reason must be one line: " + i);
                }
            }
        });
    }
}
