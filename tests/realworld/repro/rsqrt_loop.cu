#include <cstdio>
__global__ void k(const float4 *__restrict__ pos, float4 *__restrict__ out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    float4 bi = __ldg(&pos[i]);
    float4 a = make_float4(0, 0, 0, 0);
    for (int j = 0; j < n; ++j) {
        float4 bj = __ldg(&pos[j]);
        float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
        float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
        float inv = 1.0f / sqrtf(d2);
        float s = bj.w * inv * inv * inv;
        a.x += s * dx; a.y += s * dy; a.z += s * dz; a.w += bj.w;
    }
    out[i] = a;
}
int main() {
    const int n = 8; float4 h[n], o[n];
    for (int i = 0; i < n; ++i) h[i] = make_float4(i * 0.5f, (i % 3) * 1.0f, (i % 2) * 0.25f, 1.0f + i);
    float4 *d, *dout; cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(d, dout, n); cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) { float ax=0,ay=0,az=0,aw=0; for (int j = 0; j < n; ++j) { float dx=h[j].x-h[i].x, dy=h[j].y-h[i].y, dz=h[j].z-h[i].z; float d2=dx*dx+dy*dy+dz*dz+0.01f; float inv=1.0f/sqrtf(d2); float s=h[j].w*inv*inv*inv; ax+=s*dx; ay+=s*dy; az+=s*dz; aw+=h[j].w; }
      if (fabsf(o[i].x-ax) > 1e-3f*(1+fabsf(ax)) || fabsf(o[i].y-ay) > 1e-3f*(1+fabsf(ay)) || fabsf(o[i].z-az) > 1e-3f*(1+fabsf(az)) || o[i].w != aw) { bad++; printf("%d: %g %g %g %g vs %g %g %g %g\n", i, o[i].x,o[i].y,o[i].z,o[i].w, ax,ay,az,aw); } }
  printf("checksum: %d\n%s\n", bad, bad ? "FAIL" : "PASS"); return bad != 0; }
