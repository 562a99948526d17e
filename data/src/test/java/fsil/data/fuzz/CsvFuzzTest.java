package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.io.CsvReader;

import java.nio.file.Path;

/**
 * CsvReader (plain or gzip, detected by magic) from any bytes.
 * Replays the committed corpus in {@code mvn verify}; fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class CsvFuzzTest {
    private static final Path DIR = ReaderOracle.workDir("csv");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void csv(byte[] input) {
        Path file = ReaderOracle.write(DIR.resolve("input.csv"), input);
        ReaderOracle.check(file, () -> CsvReader.read(file));
    }
}
