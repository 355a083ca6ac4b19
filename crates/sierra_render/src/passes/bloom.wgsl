// Bloom as seed 000 ("Bloom"): bright pass to half resolution, downsample to quarter resolution,
// separable 9-tap Gaussian ping-ponging two quarter-size textures, additive composite.

struct BloomParams {
    // Blur step direction in texels: (1,0) horizontal, (0,1) vertical; unused by other stages.
    direction: vec2<f32>,
    // A source pixel is kept by the bright pass when its brightest channel >= threshold.
    threshold: f32,
    // Scale of the blurred highlights added onto the HDR target.
    intensity: f32,
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var source_sampler: sampler;
@group(0) @binding(2) var<uniform> params: BloomParams;

// Seed 000's weights: centre, then 1..4 texels either side (sum over 9 taps = 1.0000).
const WEIGHTS = array<f32, 5>(0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);

fn load_clamped(texel: vec2<i32>) -> vec4<f32> {
    let last = vec2<i32>(textureDimensions(source)) - 1;
    return textureLoad(source, clamp(texel, vec2<i32>(0), last), 0);
}

fn bright(color: vec4<f32>) -> vec4<f32> {
    let brightest = max(max(color.r, color.g), color.b);
    return select(vec4<f32>(0.0), color, brightest >= params.threshold);
}

// Half resolution: each output texel averages its 2x2 source pixels, keeping only bright ones, so a
// single bright pixel survives (thresholding after a bilinear average would dim it by 4 first).
@fragment
fn fs_bright(in: FullscreenOut) -> @location(0) vec4<f32> {
    let base = vec2<i32>(in.position.xy) * 2;
    let sum = bright(load_clamped(base)) + bright(load_clamped(base + vec2<i32>(1, 0)))
        + bright(load_clamped(base + vec2<i32>(0, 1))) + bright(load_clamped(base + vec2<i32>(1, 1)));
    return vec4<f32>(sum.rgb * 0.25, 1.0);
}

// Quarter resolution: 2x2 box average of the half-resolution bright image.
@fragment
fn fs_downsample(in: FullscreenOut) -> @location(0) vec4<f32> {
    let base = vec2<i32>(in.position.xy) * 2;
    let sum = load_clamped(base) + load_clamped(base + vec2<i32>(1, 0))
        + load_clamped(base + vec2<i32>(0, 1)) + load_clamped(base + vec2<i32>(1, 1));
    return vec4<f32>(sum.rgb * 0.25, 1.0);
}

// One direction of the separable Gaussian; taps sit on texel centres, edges clamp.
@fragment
fn fs_blur(in: FullscreenOut) -> @location(0) vec4<f32> {
    let centre = vec2<i32>(in.position.xy);
    let step = vec2<i32>(params.direction);
    var sum = load_clamped(centre).rgb * WEIGHTS[0];
    for (var i = 1; i < 5; i++) {
        sum += load_clamped(centre + step * i).rgb * WEIGHTS[i];
        sum += load_clamped(centre - step * i).rgb * WEIGHTS[i];
    }
    return vec4<f32>(sum, 1.0);
}

// Full resolution: bilinear upsample of the blurred quarter image; the pipeline blends ONE + ONE.
@fragment
fn fs_composite(in: FullscreenOut) -> @location(0) vec4<f32> {
    let blurred = textureSampleLevel(source, source_sampler, in.uv, 0.0).rgb;
    return vec4<f32>(blurred * params.intensity, 0.0);
}
