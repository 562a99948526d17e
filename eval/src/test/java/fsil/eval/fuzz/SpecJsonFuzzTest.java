package fsil.eval.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.eval.run.RunSpec;

import java.nio.file.Path;

/** A run directory's {@code spec.json} (as {@code --resume} reads it) from any bytes: a spec or a one-line error. */
class SpecJsonFuzzTest {
    private static final Path DIR = RunLayerOracle.workDir("spec");

    @FuzzTest(maxDuration = "6s")
    void jsonSpec(byte[] input) {
        Path file = RunLayerOracle.write(DIR, "spec.json", input);
        RunLayerOracle.oneLine(() -> RunSpec.read(file));
    }
}
