package fsil.data;

import fsil.api.FsilException;
import fsil.api.Params;
import fsil.api.PluginRef;
import fsil.api.Registry;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The backbone plugins, and a backbone reference resolved against them. */
public final class Backbones {

    private Backbones() {
    }

    /** The backbones {@link java.util.ServiceLoader} finds (the built-ins and plugins on the class path). */
    public static Registry<Backbone> discover() {
        return Registry.discover("backbone", Backbone.class, Backbone::id);
    }

    /** A backbone with resolved parameters. */
    public record Configured(Backbone backbone, Params params) {
        /** The canonical text ({@link Backbone#describe}). */
        public String describe() {
            return backbone.describe(params);
        }

        public FeatureSet apply(RawDataset raw, long seed, Path cacheDir) {
            return backbone.apply(raw, params, seed, cacheDir);
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /**
     * Resolves {@code id[key=value,...]}, or the older spelling {@code id:key=value,...}: unknown ids, unknown
     * parameters and bad values are rejected with the valid choices.
     */
    public static Configured resolve(Registry<Backbone> backbones, String text) {
        String t = text == null ? "" : text.strip();
        int colon = t.indexOf(':');
        int bracket = t.indexOf('[');
        PluginRef ref;
        if (colon > 0 && bracket < 0) {
            Map<String, String> opts = new LinkedHashMap<>();
            for (String part : t.substring(colon + 1).split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new FsilException("backbone '" + text + "': option '" + part.strip()
                            + "' must be key=value, e.g. pretrained-mlp[hidden=256-128,epochs=10]");
                }
                opts.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
            ref = new PluginRef(t.substring(0, colon).strip(), opts);
        } else {
            ref = PluginRef.parse("backbone", t);
        }
        Backbone b = backbones.get(ref.id());
        Configured c = new Configured(b, b.params(ref.params()));
        c.describe(); // a backbone rejects invalid combinations of values here, before any work
        return c;
    }

    /** {@link #resolve(Registry, String)} against the discovered backbones. */
    public static Configured resolve(String text) {
        return resolve(discover(), text);
    }

    /** The identity backbone. */
    public static Configured identity() {
        IdentityBackbone b = new IdentityBackbone();
        return new Configured(b, b.defaults());
    }

    /** The raw inputs as features. */
    public static FeatureSet identity(RawDataset raw) {
        return IdentityBackbone.of(raw);
    }
}
