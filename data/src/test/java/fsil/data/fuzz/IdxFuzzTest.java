package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.io.IdxReader;

import java.nio.file.Path;

/**
 * IdxReader (raw or gzip): images and labels from any bytes.
 * Replays the committed corpus in {@code mvn verify}; fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class IdxFuzzTest {
    private static final Path DIR = ReaderOracle.workDir("idx");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void idx(byte[] input) {
        Path file = ReaderOracle.write(DIR.resolve("input-idx-ubyte"), input);
        ReaderOracle.check(file, () -> IdxReader.read(file).toFeatures(1f / 255));
        ReaderOracle.check(file, () -> IdxReader.read(file).toLabels());
    }
}
