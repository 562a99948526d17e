package fsil.eval.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import fsil.eval.run.RunSpec;

import java.nio.file.Path;

/** A run file ({@code fsil run --run-file}, YAML) from any bytes: a spec or a one-line error. */
class RunFileFuzzTest {
    private static final Path DIR = RunLayerOracle.workDir("run-file");

    @FuzzTest(maxDuration = "6s")
    void yamlRunFile(byte[] input) {
        Path file = RunLayerOracle.write(DIR, "run.yaml", input);
        RunLayerOracle.oneLine(() -> RunSpec.read(file));
    }
}
