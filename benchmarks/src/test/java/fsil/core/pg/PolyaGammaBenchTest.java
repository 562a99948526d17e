package fsil.core.pg;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark bodies run and return live values (each is called once, outside JMH). */
class PolyaGammaBenchTest {

    @Test
    void everyBodyDraws() {
        PolyaGammaBench b = new PolyaGammaBench();
        b.setup();
        double[] out = b.exactVaryingC();
        assertTrue(out.length == PolyaGammaBench.DRAWS && out[0] > 0 && out[PolyaGammaBench.DRAWS - 1] > 0);
        // PG(1, c) has mean tanh(c/2)/(2c), 0.23 at c = 1; a sum of 4096 draws is near 947, a Gamma(1,1) sum near 4096
        double fixed = b.exactFixedC() / PolyaGammaBench.DRAWS;
        assertTrue(fixed > 0.2 && fixed < 0.27, "PG(1,1) mean " + fixed);
        assertTrue(b.series200Reference() > 0);
        double gamma = b.gammaReference() / PolyaGammaBench.DRAWS;
        assertTrue(gamma > 0.9 && gamma < 1.1, "Gamma(1,1) mean " + gamma);
    }
}
