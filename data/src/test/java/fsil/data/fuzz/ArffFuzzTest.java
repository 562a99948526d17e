package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.io.ArffReader;

import java.nio.file.Path;

/**
 * ArffReader (plain or gzip) from any bytes.
 * Replays the committed corpus in {@code mvn verify}; fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class ArffFuzzTest {
    private static final Path DIR = ReaderOracle.workDir("arff");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void arff(byte[] input) {
        Path file = ReaderOracle.write(DIR.resolve("input.arff"), input);
        ReaderOracle.check(file, () -> ArffReader.read(file));
    }
}
