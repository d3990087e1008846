#pragma once
// Device-side polymorphism across translation units (-rdc=true): the virtual functions and a
// table of function pointers live in shapes.cu, the kernel that calls them in main.cu.
struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
    float s;
    __device__ Square(float s) : s(s) {}
    __device__ float area() const override;
    __device__ int sides() const override;
};
struct Disc : Shape {
    float r;
    __device__ Disc(float r) : r(r) {}
    __device__ float area() const override;
};
typedef unsigned (*step_fn)(unsigned);
extern __device__ step_fn steps[3];
