floor floor-8 { layout "udud" }
