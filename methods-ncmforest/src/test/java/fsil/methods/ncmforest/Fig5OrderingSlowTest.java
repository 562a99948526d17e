package fsil.methods.ncmforest;

import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import fsil.core.synthetic.GaussianClasses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A quick synthetic check of the paper's Fig. 5 (k = 3 initial classes, then one class at a time up to 50, T = 50):
 * final relative accuracy RTST >= RUST > IGT > ULS, and training cost ULS < IGT < RUST < RTST < retrain. The cost
 * ordering is asserted on the comparison counts (deterministic); wall times are printed, not asserted. Runs both
 * readings of the RTST/RUST node selection. About a minute: {@code mvn -Pslow -pl methods-ncmforest -am verify
 * -Dtest=Fig5OrderingSlowTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("slow")
class Fig5OrderingSlowTest {

    @Test
    void strategiesOrderAsInFigure5() {
        int classes = 50;
        GaussianClasses gen = GaussianClasses.builder(64, 1).means(16, 1.2).modes(3).subspaceNoise(0).noise(1.0)
                .build();
        int[] all = java.util.stream.IntStream.range(0, classes).toArray();
        LabeledData train = gen.sample(all, 50, 0);
        LabeledData test = gen.sample(all, 30, 1);
        int[] order = RandomStreams.permutation(classes, RandomStreams.create(RandomStreams.derive(1, "order")));
        for (String selection : new String[]{"samples", "nodes"}) {
            Map<String, IncrementalComparison.Curve> c = IncrementalComparison.run(
                    List.of("uls", "igt", "rtst", "rust"), Map.of("trees", "50", "selection", selection),
                    train, test, order, 3, 1, 1);
            System.out.println("# Fig. 5 check, selection=" + selection);
            System.out.print(IncrementalComparison.summary(c));
            System.out.print(IncrementalComparison.checkpoints(c, 10));
            double ref = c.get("retrain").finalAccuracy();
            double uls = c.get("uls").finalAccuracy() / ref;
            double igt = c.get("igt").finalAccuracy() / ref;
            double rtst = c.get("rtst").finalAccuracy() / ref;
            double rust = c.get("rust").finalAccuracy() / ref;
            assertTrue(rtst >= rust && rust > igt && igt > uls,
                    selection + ": relative accuracy RTST >= RUST > IGT > ULS, got " + rtst + ", " + rust + ", " + igt
                            + ", " + uls);
            double wUls = c.get("uls").incrementalComparisons();
            double wIgt = c.get("igt").incrementalComparisons();
            double wRust = c.get("rust").incrementalComparisons();
            double wRtst = c.get("rtst").incrementalComparisons();
            double wRetrain = c.get("retrain").incrementalComparisons();
            assertTrue(wUls < wIgt && wIgt < wRust && wRust < wRtst && wRtst < wRetrain,
                    selection + ": work ULS < IGT < RUST < RTST < retrain, got " + wUls + ", " + wIgt + ", " + wRust
                            + ", " + wRtst + ", " + wRetrain);
        }
    }
}
