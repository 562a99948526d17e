package fsil.data.sets;

import fsil.api.FsilException;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.data.RawDataset;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyntheticDatasetTest {

    @Test
    void parsesNameAndIsDeterministic() {
        FeatureSet a = Datasets.load("synthetic:classes=6,dim=5,per_class=4,test_per_class=3,rank=2,seed=9",
                "identity", 0, Path.of("unused"));
        FeatureSet b = Datasets.load("synthetic:seed=9,rank=2,dim=5,classes=6,per_class=4,test_per_class=3",
                "identity", 0, Path.of("unused"));
        assertEquals(a.dataset(), b.dataset());
        assertEquals(24, a.train().size());
        assertEquals(18, a.test().size());
        assertEquals(5, a.dimension());
        assertArrayEquals(a.train().features().rawData(), b.train().features().rawData());
        assertArrayEquals(new int[]{0, 1, 2}, a.splits().base());
        assertArrayEquals(new int[]{3, 4, 5}, a.splits().novel());
        FeatureSet c = Datasets.load("synthetic:classes=6,dim=5,per_class=4,test_per_class=3,rank=2,seed=10",
                "identity", 0, Path.of("unused"));
        assertTrue(c.train().features().get(0, 0) != a.train().features().get(0, 0));
    }

    @Test
    void classDataDoesNotDependOnTheNumberOfClasses() {
        RawDataset small = SyntheticDataset.generate(parse("classes=3,dim=8,per_class=5"));
        RawDataset big = SyntheticDataset.generate(parse("classes=50,dim=8,per_class=5"));
        for (int i = 0; i < 15 * 8; i++) {
            assertEquals(small.train().features().rawData()[i], big.train().features().rawData()[i]);
        }
    }

    /** Sample moments match the model: class means U mu_c, and within-class variance (rank + dim noise^2) / dim. */
    @Test
    void momentsMatchTheGenerativeModel() {
        SyntheticDataset.Params p = parse("classes=3,dim=10,rank=4,per_class=20000,test_per_class=0,"
                + "sep=3,noise=0.5");
        RawDataset raw = SyntheticDataset.generate(p);
        double[] means = SyntheticDataset.classMeans(p);
        float[] x = raw.train().features().rawData();
        double totalVar = 0;
        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < 10; i++) {
                double s = 0;
                double ss = 0;
                for (int n = 0; n < 20000; n++) {
                    double v = x[(c * 20000 + n) * 10 + i];
                    s += v;
                    ss += v * v;
                }
                double m = s / 20000;
                // per-coordinate variance is at most 1 + 0.25, so the standard error is < 0.008
                assertEquals(means[c * 10 + i], m, 0.04);
                totalVar += ss / 20000 - m * m;
            }
        }
        // trace of U U^T + noise^2 I = rank + dim * noise^2 = 4 + 2.5 per class
        assertEquals(3 * 6.5, totalVar, 0.3);
    }

    @Test
    void scalesToTenThousandClasses() {
        RawDataset raw = SyntheticDataset.generate(parse("classes=10000,dim=16,per_class=2,"
                + "test_per_class=1,rank=8"));
        assertEquals(20000, raw.train().size());
        assertEquals(10000, raw.classes().size());
    }

    @Test
    void fscilSessionsByRule() {
        RawDataset raw = SyntheticDataset.generate(parse("classes=22,dim=3,per_class=6"));
        var f = raw.splits().fscil().orElseThrow();
        assertArrayEquals(raw.splits().base(), f.baseClasses());
        assertEquals(3, f.sessionSamples().size()); // 11 novel classes: 5 + 5 + 1
        assertEquals(25, f.sessionSamples().get(0).length);
        assertEquals(5, f.sessionSamples().get(2).length);
        for (int i : f.sessionSamples().get(2)) {
            assertEquals(21, raw.train().labels()[i]);
        }
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(FsilException.class, () -> parse("classes=1"));
        assertThrows(FsilException.class, () -> parse("dim=4,rank=5"));
        assertTrue(assertThrows(FsilException.class, () -> parse("colour=red")).getMessage()
                .contains("Valid parameters"));
        assertThrows(FsilException.class, () -> parse("classes=100000,dim=1000,per_class=100"));
    }

    /** The generator's parameters of {@code synthetic:KEY=VALUE,...}, resolved as the command line resolves them. */
    static SyntheticDataset.Params parse(String keyValues) {
        return BuiltinDatasets.Synthetic.of(fsil.data.Datasets.resolve(fsil.data.Datasets.discover(),
                "synthetic:" + keyValues).params());
    }
}
