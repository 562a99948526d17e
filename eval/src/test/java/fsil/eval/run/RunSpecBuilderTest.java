package fsil.eval.run;

import fsil.api.FsilException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One builder for run files and flags: flags replace what they name and nothing else, and the spec is built once. */
class RunSpecBuilderTest {

    private static Path file(Path dir, String text) throws IOException {
        Path f = dir.resolve("run.yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void flagsReplaceWhatTheyNameAndKeepTheRestOfTheFile(@TempDir Path tmp) throws IOException {
        Path f = file(tmp, RunSpecTest.BASE + "order_seed: 7\noptions: {shots: [1, 5], queries: 75}\n"
                + "select: {'knn.k': [1, 3]}\n");
        RunSpec s = RunSpecBuilder.read(f).option("shots", " 10, ,20 ").select("ncm.shrink", "0,0.5").trainSeed(3L)
                .orderSeed(null).build();
        assertEquals(Map.of("shots", List.of("10", "20"), "queries", List.of("75")), s.options());
        assertEquals(Map.of("knn.k", List.of("1", "3"), "ncm.shrink", List.of("0", "0.5")), s.select());
        assertEquals(7, s.orderSeed(), "a null flag leaves the file's value");
        assertEquals(3, s.trainSeed());
        assertEquals(RunSpec.DEFAULT_BACKBONE_SEED, s.backboneSeed());
    }

    @Test
    void setAppliesToEveryVariantOfAMethodOrALabel(@TempDir Path tmp) {
        RunSpec s = new RunSpecBuilder("command line").methods("knn,wide:knn[k=9],ncm").datasets("digits")
                .protocol("fewshot").set("knn.k=5").set("ncm.shrink=0.1").threads(1).build();
        assertEquals(List.of(Map.of("k", "5"), Map.of("k", "5"), Map.of("shrink", "0.1")),
                s.methods().stream().map(VariantSpec::params).toList());
        assertEquals(List.of("knn", "wide", "ncm"), s.methods().stream().map(VariantSpec::label).toList());
        FsilException e = assertThrows(FsilException.class, () -> new RunSpecBuilder("command line")
                .methods("knn").datasets("digits").protocol("fewshot").set("ppca.q=3").build());
        assertEquals("--set ppca.q=3: no method variant 'ppca' in --methods", e.getMessage());
        assertThrows(FsilException.class, () -> new RunSpecBuilder("command line").set("knn=5"));
    }

    @Test
    void aFileValueIsCheckedEvenWhereAFlagOverridesIt(@TempDir Path tmp) throws IOException {
        Path f = file(tmp, RunSpecTest.BASE + "threads: 0\n");
        FsilException e = assertThrows(FsilException.class, () -> RunSpecBuilder.read(f).threads(2).build());
        assertTrue(e.getMessage().startsWith(f + ": 'threads' must be an integer between 1 and"), e.getMessage());
    }

    @Test
    void anOptionFlagWithNoValueIsAnError() {
        FsilException e = assertThrows(FsilException.class, () -> new RunSpecBuilder("command line")
                .option("shots", " , "));
        assertEquals("command line: 'options.shots' has no value", e.getMessage());
    }

    @Test
    void aBuiltSpecReadsBackFromItsSpecJson(@TempDir Path tmp) throws IOException {
        RunSpec s = new RunSpecBuilder("command line").methods("ncm,rbf:ppca[q=0]").datasets("digits,synthetic")
                .protocol("cil").option("steps", "5").select("ncm.shrink", "0,0.5").selectMetric("final_acc")
                .calibrate("temperature").threads(2).build();
        Path json = tmp.resolve("spec.json");
        Files.writeString(json, s.toJson());
        assertEquals(s, RunSpec.read(json));
    }
}
