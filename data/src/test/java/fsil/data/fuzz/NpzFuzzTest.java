package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.io.NpzReader;

import java.nio.file.Path;

/**
 * NpzReader: labelled archives from any bytes.
 * Replays the committed corpus in {@code mvn verify}; fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class NpzFuzzTest {
    private static final Path DIR = ReaderOracle.workDir("npz");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void npz(byte[] input) {
        Path file = ReaderOracle.write(DIR.resolve("input.npz"), input);
        ReaderOracle.check(file, () -> NpzReader.readLabeled(file));
    }
}
