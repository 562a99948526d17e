package fsil.backbones.djl;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;
import fsil.api.FsilException;

import java.nio.file.Path;

/**
 * The one place that starts DJL's engine. Before the engine is first touched it sets:
 * <ul>
 *   <li>{@code ai.djl.offline=true}: DJL never downloads anything (libtorch comes from the
 *       {@code pytorch-native-cpu} jar on the class path);</li>
 *   <li>{@code DJL_CACHE_DIR} and {@code ENGINE_CACHE_DIR} to {@code <fsil cache>/djl}, where libtorch (about 450 MB)
 *       is extracted once, unless the user set them already (as system properties or environment variables);</li>
 *   <li>{@code ai.djl.default_engine=PyTorch}.</li>
 * </ul>
 * Merely instantiating a backbone (ServiceLoader does it for {@code fsil backbones}, {@code fsil methods},
 * {@code fsil demo}) never reaches this class, so those commands never load or extract libtorch.
 */
public final class DjlRuntime {
    /** The engine name DJL reports. */
    public static final String ENGINE = "PyTorch";

    private static Engine engine;

    private DjlRuntime() {
    }

    /** Sets the offline flag and the cache directories (only where unset) without starting the engine. */
    static synchronized void configure(Path fsilCacheDir) {
        System.setProperty("ai.djl.offline", "true");
        System.setProperty("ai.djl.default_engine", ENGINE);
        Path djl = fsilCacheDir.toAbsolutePath().normalize().resolve("djl");
        for (String key : new String[]{"DJL_CACHE_DIR", "ENGINE_CACHE_DIR"}) {
            if (System.getProperty(key) == null && System.getenv(key) == null) {
                System.setProperty(key, djl.toString());
            }
        }
    }

    /**
     * The PyTorch engine, started on first use with {@link #configure}; a missing or broken native library is a
     * one-line {@link FsilException}.
     */
    public static synchronized Engine engine(Path fsilCacheDir) {
        if (engine == null) {
            configure(fsilCacheDir);
            try {
                engine = Engine.getEngine(ENGINE);
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                throw new FsilException("cannot start PyTorch through DJL offline (libtorch from the"
                        + " pytorch-native-cpu jar, cache " + System.getProperty("ENGINE_CACHE_DIR") + "): "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
            }
        }
        return engine;
    }

    /** The device training runs on: DJL's default (a GPU when DJL's setup selects one, the CPU here). */
    public static Device device(Path fsilCacheDir) {
        return engine(fsilCacheDir).defaultDevice();
    }

    /**
     * Sets PyTorch's intra-op thread count (a process-wide setting of libtorch) and seeds its random generator and
     * DJL's: what makes training deterministic for a seed and thread count.
     */
    static synchronized void prepare(Path fsilCacheDir, int threads, long seed) {
        Engine e = engine(fsilCacheDir);
        if (JniUtils.getNumThreads() != threads) {
            JniUtils.setNumThreads(threads);
        }
        e.setRandomSeed((int) (seed ^ (seed >>> 32)));
    }
}
