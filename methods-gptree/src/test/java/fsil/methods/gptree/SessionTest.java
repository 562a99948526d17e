package fsil.methods.gptree;

import fsil.api.FeatureMatrix;
import fsil.api.FsilException;
import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.api.SessionContext;
import fsil.api.Capability;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The few-shot class-incremental flow (paper §3.4) and the Table 4 alternatives, on separable clusters. */
class SessionTest {
    private static final int D = 8;
    private static final int K = 10;
    private static final int[] Y_ALL = new int[K * 30];
    private static final float[] X_ALL = TestSupport.clusters(K, 30, D, 0.8, 77, Y_ALL);

    /** Rows of class c: training rows [0, shots) and test rows [20, 30). */
    private static LabeledData part(int[] classes, int from, int to) {
        int per = to - from;
        float[] x = new float[classes.length * per * D];
        int[] y = new int[classes.length * per];
        for (int k = 0; k < classes.length; k++) {
            for (int i = 0; i < per; i++) {
                int src = classes[k] * 30 + from + i;
                System.arraycopy(X_ALL, src * D, x, (k * per + i) * D, D);
                y[k * per + i] = classes[k];
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, D, x), y);
    }

    private static GpTreeSession session(String novelTree) {
        GpTreeMethod m = new GpTreeMethod();
        return (GpTreeSession) m.learner(m.params(Map.of("novel_tree", novelTree, "chains", "6", "epochs", "15",
                        "pretrain_epochs", "5", "batch_size", "32", "dkl_hidden", "16", "dkl_out", "8")),
                fsil.api.Background.none(D)).newSession(
                new SessionContext(Capability.FEWSHOT_CLASS_INCREMENTAL, D, 3, SessionContext.DIRECT));
    }

    private static double accuracy(Prediction p, int[] y) {
        int[] l = p.labels();
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            ok += l[i] == y[i] ? 1 : 0;
        }
        return ok / (double) y.length;
    }

    @Test
    void baseSessionIsVariationalAndNovelSessionsAddAGibbsSubtreeUnderASharedRoot() {
        GpTreeSession s = session("gptree");
        s.learn(part(new int[]{0, 1, 2, 3, 4, 5}, 0, 20));
        TreeNode base = s.tree();
        assertInstanceOf(ViNode.class, base.model, "auto inference uses VI in the FSCIL base session");
        assertTrue(s.diagnostics().get("vi_loss_last_epoch") < s.diagnostics().get("vi_loss_first_epoch"));
        s.learn(part(new int[]{6, 7}, 0, 5));
        TreeNode r1 = s.tree();
        assertInstanceOf(GibbsNode.class, r1.model);
        assertSame(base, r1.left, "the base tree is kept intact");
        assertArrayEquals(new int[]{6, 7}, r1.right.classes);
        assertEquals(6 * 5 + 2 * 5, ((GibbsNode) r1.model).size(), "root: 5 inducing inputs per base class + shots");
        s.learn(part(new int[]{8, 9}, 0, 5));
        TreeNode r2 = s.tree();
        assertSame(base, r2.left);
        assertArrayEquals(new int[]{6, 7, 8, 9}, r2.right.classes, "the novel sub-tree covers all novel classes");
        LabeledData test = part(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 20, 30);
        Prediction p = s.predict(test.features());
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, p.classes());
        double acc = accuracy(p, test.labels());
        assertTrue(acc > 0.8, "accuracy " + acc);
    }

    @Test
    void sessionTreeChainsRootsAndRebuildRefitsEveryNodeWithGibbs() {
        GpTreeSession s = session("session");
        s.learn(part(new int[]{0, 1, 2, 3, 4, 5}, 0, 20));
        s.learn(part(new int[]{6, 7}, 0, 5));
        TreeNode first = s.tree();
        s.learn(part(new int[]{8, 9}, 0, 5));
        assertSame(first, s.tree().left, "Session Tree: the previous tree becomes the left child of a new root");
        assertArrayEquals(new int[]{8, 9}, s.tree().right.classes);

        GpTreeSession r = session("rebuild");
        r.learn(part(new int[]{0, 1, 2, 3, 4, 5}, 0, 20));
        r.learn(part(new int[]{6, 7}, 0, 5));
        for (TreeNode t : r.tree().internalNodes()) {
            assertInstanceOf(GibbsNode.class, t.model, "Rebuild Tree: Gibbs nodes everywhere");
        }
        assertEquals(7, r.tree().internalNodes().size());
        LabeledData test = part(new int[]{0, 1, 2, 3, 4, 5, 6, 7}, 20, 30);
        assertTrue(accuracy(r.predict(test.features()), test.labels()) > 0.8);
    }

    @Test
    void classIncrementalGibbsDefaultAndClearErrors() {
        GpTreeMethod m = new GpTreeMethod();
        GpTreeSession s = (GpTreeSession) m.learner(m.params(Map.of("chains", "4")), fsil.api.Background.none(D))
                .newSession(SessionContext.incremental(D, 1));
        FsilException early = assertThrows(FsilException.class, () -> s.predict(part(new int[]{0}, 0, 1).features()));
        assertTrue(early.getMessage().contains("before any class"), early.getMessage());
        s.learn(part(new int[]{0, 1, 2}, 0, 20));
        assertInstanceOf(GibbsNode.class, s.tree().model, "class-incremental base uses Gibbs nodes by default");
        FsilException again = assertThrows(FsilException.class, () -> s.learn(part(new int[]{2, 3}, 0, 20)));
        assertTrue(again.getMessage().contains("class 2") && again.getMessage().contains("new classes only"),
                again.getMessage());
        LabeledData wrong = new LabeledData(FeatureMatrix.wrap(1, 3, new float[]{1, 2, 3}), new int[]{5});
        InvalidDataException dim = assertThrows(InvalidDataException.class, () -> s.learn(wrong));
        assertTrue(dim.getMessage().contains("dimension " + D), dim.getMessage());
        s.learn(part(new int[]{3}, 0, 20));
        assertEquals(4, s.predict(part(new int[]{0}, 20, 21).features()).numClasses());
        assertTrue(s.memoryBytes() > 0);
        assertTrue(Arrays.stream(new String[]{"train_seconds", "tree_depth_mean", "root_log_marginal"})
                .allMatch(k -> s.diagnostics().containsKey(k)), s.diagnostics().toString());
    }
}
