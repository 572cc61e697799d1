floor floor-8 { layout "UDUD" }
