package fsil.data.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.data.io.LabelEncoder;
import fsil.data.io.NpyReader;

import java.nio.file.Path;

/**
 * NpyReader: features and labels (numeric and unicode) from any bytes.
 * Replays the committed corpus in {@code mvn verify}; fuzzes with {@code JAZZER_FUZZ=1} (data/DATA.md).
 */
class NpyFuzzTest {
    private static final Path DIR = ReaderOracle.workDir("npy");

    @FuzzTest(maxDuration = FuzzBudget.PER_READER)
    void npy(byte[] input) {
        Path file = ReaderOracle.write(DIR.resolve("input.npy"), input);
        ReaderOracle.check(file, () -> NpyReader.read(file).toFeatureMatrix());
        ReaderOracle.check(file, () -> LabelEncoder.encode(NpyReader.read(file).toLabelValues()));
    }
}
